import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { ApplicationFailure } from '@temporalio/common';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createNotificationActivities } from '../../activities/notification-email';
import { createOrm } from '../../src/db/orm';
import { mailboxList, mailboxShow } from '../../src/cli/mailbox-commands';
import { createMailer, type Mailer } from '../../src/domain/mail/mailer';
import { markRecipientConfirmed } from '../../src/domain/recipients/confirmations';
import { findPart, headerValue, readMimeMessage } from '../../src/domain/mail/mime-reader';
import { SMTP_REJECTED_FAILURE } from '../../workflows/failure-types';
import { expectAnswer, type FormView } from '../support/api-client';
import { aroundStatements } from '../support/statement-spy';
import { useTestStack } from '../support/fixture';
import { ingestResultOf, postMultipart, submitJson } from '../support/ingest-requests';
import {
  closedPort,
  startSmtpSink,
  type SmtpSink,
  type SmtpSinkOptions,
} from '../support/smtp-sink';

const MAIL_FROM = 'Formward <notify@forms.example.org>';

const t = useTestStack();
let tempDir: string;
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(() => {
  tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-mail-'));
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(() => {
  if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
});

async function sink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const started = await startSmtpSink(options);
  cleanups.push(() => started.close());
  return started;
}

function mailerFor(smtpUrl: string | undefined, logger = t.stack.ctx.logger): Mailer {
  const mailer = createMailer({ smtpUrl, mailFrom: MAIL_FROM, dataDir: tempDir }, logger);
  cleanups.push(() => mailer.close());
  return mailer;
}

function activityWith(mailer: Mailer, orm = t.stack.ctx.orm) {
  return createNotificationActivities({
    orm,
    mailer,
    baseUrl: t.stack.url,
    logger: t.stack.ctx.logger,
    unsubscribeTokens: t.stack.ctx.unsubscribeTokens,
    mailPerHour: 1000,
  });
}

/** A form whose addresses have confirmed (test/mail/recipients.int.test.ts covers the link). */
async function formWith(
  addresses: string[],
  name = 'Contact',
  settings: { accept_files?: boolean } = {},
): Promise<FormView> {
  for (const address of addresses) {
    await markRecipientConfirmed(t.stack.ctx.orm.em.fork(), t.accountId, address);
  }
  return t.api.createForm({ name, notification_email_addresses: addresses, ...settings });
}

/** Runs the activity and returns the failure it threw. */
async function failureOf(run: Promise<unknown>): Promise<unknown> {
  try {
    await run;
  } catch (error) {
    return error;
  }
  throw new Error('the activity did not fail');
}

describe('notification e-mail over SMTP', () => {
  it('sends the message about the submission to every address of the form, one copy each', async () => {
    const smtp = await sink();
    const form = await formWith(
      ['owner@example.com', 'Team@Example.com', 'owner@example.com'],
      'Contact <Sales> & Zoë',
    );
    const payload = {
      name: '  Zoë Ünïcödé ',
      email: 'Zoe@Example.COM',
      message: 'Grüße aus Köln 🌷\nsecond line',
      comment: '<script>alert("x")</script> & <b>bold</b>',
      tags: ['red', 'blue'],
      seats: 3,
    };
    const id = await submitJson(form, payload);
    const mailer = mailerFor(smtp.url({ user: 'sink-user', pass: 'p@ss:word/1' }));

    const result = await activityWith(mailer).sendNotificationEmail(id);

    expect(result).toEqual({
      sent: true,
      recipients: ['owner@example.com', 'team@example.com'],
      messageId: expect.stringMatching(
        new RegExp(`^<submission-${id}\\.[0-9a-f]{16}@forms\\.example\\.org>$`),
      ),
    });
    // One copy per recipient, each with its own unsubscribe link, all one Message-ID.
    expect(smtp.messages.map((m) => m.rcptTo)).toEqual([
      ['owner@example.com'],
      ['team@example.com'],
    ]);
    const unsubscribeLinks = smtp.messages.map((m) =>
      headerValue(readMimeMessage(m.raw), 'list-unsubscribe'),
    );
    for (const linkHeader of unsubscribeLinks) {
      expect(linkHeader).toMatch(
        new RegExp(`^<${t.stack.url}/recipients/unsubscribe\\?token=[A-Za-z0-9_-]+>$`),
      );
    }
    expect(new Set(unsubscribeLinks).size).toBe(2);
    const [sent, copy] = smtp.messages;
    expect(sent!.auth).toEqual({ username: 'sink-user', password: 'p@ss:word/1' });
    expect(sent!.mailFrom).toBe('notify@forms.example.org');
    expect(headerValue(readMimeMessage(copy!.raw), 'to')).toBe('team@example.com');
    expect(headerValue(readMimeMessage(copy!.raw), 'message-id')).toBe(result.messageId);

    const raw = sent!.raw.toString('utf8');
    expect(raw).toContain(`Message-ID: ${result.messageId}`);
    expect(raw).toMatch(/^Auto-Submitted: auto-generated$/m);
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    const message = readMimeMessage(sent!.raw);
    expect(headerValue(message, 'subject')).toBe('New submission to "Contact <Sales> & Zoë"');
    expect(headerValue(message, 'to')).toBe('owner@example.com');
    expect(headerValue(message, 'from')).toBe(MAIL_FROM);
    expect(headerValue(message, 'reply-to')).toBe('Zoë Ünïcödé <zoe@example.com>');

    const submissionUrl = `${t.stack.url}/api/submissions/${id}`;
    const text = findPart(message, 'text/plain')!.body;
    expect(text).toMatch(/^name: +Zoë Ünïcödé *$/m);
    expect(text).toContain('email: Zoe@Example.COM');
    expect(text).toContain('message:\n  Grüße aus Köln 🌷\n  second line\n');
    expect(text).toContain('comment: <script>alert("x")</script> & <b>bold</b>');
    expect(text).toContain('tags:\n  - red\n  - blue\n');
    expect(text).toContain('seats: 3');
    expect(text).toContain(`Submission: ${id}, received `);
    expect(text).toContain(submissionUrl);

    const html = findPart(message, 'text/html')!.body;
    expect(html).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;',
    );
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>bold');
    expect(html).toContain('New submission to &quot;Contact &lt;Sales&gt; &amp; Zoë&quot;');
    expect(html).toContain('Grüße aus Köln 🌷\nsecond line');
    expect(html).toContain('<li><span style="white-space:pre-wrap">blue</span></li>');
    expect(html).toContain(`<a href="${submissionUrl}">`);

    // The link in the message is the submission as the API serves it.
    const linked = await t.api.get(submissionUrl);
    const { submission } = expectAnswer(linked, 'GET /api/submissions/{id}', 200);
    expect(submission.payload_json.comment).toBe(payload.comment);
  });

  it('keeps the Message-ID when the same notification is sent again', async () => {
    const smtp = await sink();
    const form = await formWith(['a@example.com', 'b@example.com']);
    const id = await submitJson(form, { message: 'twice' });
    const activity = activityWith(mailerFor(smtp.url()));

    const first = await activity.sendNotificationEmail(id);
    const second = await activity.sendNotificationEmail(id);

    expect(second.messageId).toBe(first.messageId);
    // Two copies (a and b) each time, all under the one Message-ID.
    expect(smtp.messages.map((m) => headerValue(readMimeMessage(m.raw), 'message-id'))).toEqual([
      first.messageId,
      first.messageId,
      first.messageId,
      first.messageId,
    ]);

    // Another set of addressees is another message.
    const patched = await t.api.patch(`/api/forms/${form.id}`, {
      notification_email_addresses: ['a@example.com'],
    });
    expect(patched.status, patched.text).toBe(200);
    const third = await activity.sendNotificationEmail(id);
    expect(third.recipients).toEqual(['a@example.com']);
    expect(third.messageId).not.toBe(first.messageId);
  });

  it('lists uploaded files with their name, size and working download link', async () => {
    const smtp = await sink();
    const form = await formWith(['files@example.com'], 'Uploads', { accept_files: true });
    const content = Buffer.alloc(2500, 'x');
    const res = await postMultipart(
      form.submission_url,
      [
        { name: 'name', value: 'Uploader' },
        { name: 'cv', filename: 'lebenslauf-ä.pdf', contentType: 'application/pdf', content },
      ],
      { accept: 'application/json' },
    );
    expect(res.status).toBe(200);
    const id = ingestResultOf(res).id;

    const result = await activityWith(mailerFor(smtp.url())).sendNotificationEmail(id);
    expect(result.sent).toBe(true);

    const message = readMimeMessage(smtp.messages[0]!.raw);
    const text = findPart(message, 'text/plain')!.body;
    const fileUrl = new RegExp(`${t.stack.url}/api/submissions/${id}/files/\\d+`);
    expect(text).toContain('cv:\n  lebenslauf-ä.pdf (application/pdf, 2.4 KB)\n');
    const url = fileUrl.exec(text)?.[0];
    expect(url).toBeDefined();
    expect(findPart(message, 'text/html')!.body).toContain(
      `<a href="${url}">lebenslauf-ä.pdf</a> (application/pdf, 2.4 KB)`,
    );

    const download = await t.api.get(url!);
    expect(download.status).toBe(200);
    expect(download.bytes.equals(content)).toBe(true);
  });

  it('reads the submission, its form and its uploads in one statement', async () => {
    const smtp = await sink();
    const form = await formWith(['once@example.com'], 'One read', { accept_files: true });
    const res = await postMultipart(
      form.submission_url,
      [
        { name: 'name', value: 'Reader' },
        { name: 'cv', filename: 'cv.txt', contentType: 'text/plain', content: 'cv' },
      ],
      { accept: 'application/json' },
    );
    const id = ingestResultOf(res).id;
    // An ORM of its own, so only this activity's statements are counted, not the stack's.
    const orm = await createOrm(t.stack.databaseUrl, { poolMax: 1 });
    cleanups.push(() => orm.close());
    const reads: string[] = [];
    await aroundStatements(orm, (statement, send) => {
      if (/\b(submissions|forms|submission_files)\b/.test(statement.sql)) reads.push(statement.sql);
      return send();
    });
    try {
      const result = await activityWith(mailerFor(smtp.url()), orm).sendNotificationEmail(id);
      expect(result.sent).toBe(true);
    } finally {
      vi.restoreAllMocks();
    }
    expect(reads).toHaveLength(1);
    expect(findPart(readMimeMessage(smtp.messages[0]!.raw), 'text/plain')!.body).toContain(
      'cv.txt (text/plain, 2 bytes)',
    );
  });

  it('skips a form without notification addresses and sends nothing', async () => {
    const smtp = await sink();
    const form = await formWith([]);
    const id = await submitJson(form, { message: 'nobody to tell' });

    const result = await activityWith(mailerFor(smtp.url())).sendNotificationEmail(id);

    expect(result).toEqual({
      sent: false,
      recipients: [],
      messageId: null,
      skipped: 'no_recipients',
    });
    expect(smtp.messages).toHaveLength(0);
  });

  it('skips a spam submission and sends nothing', async () => {
    const smtp = await sink();
    const form = await formWith(['owner@example.com']);
    const id = await submitJson(form, { message: 'buy', _hp: 'bot' });

    const result = await activityWith(mailerFor(smtp.url())).sendNotificationEmail(id);

    expect(result).toMatchObject({ sent: false, messageId: null, skipped: 'spam' });
    expect(smtp.messages).toHaveLength(0);
  });

  it('skips a submission that does not exist', async () => {
    const smtp = await sink();
    const result = await activityWith(mailerFor(smtp.url())).sendNotificationEmail('987654321');
    expect(result).toMatchObject({ sent: false, skipped: 'submission_missing' });
    expect(smtp.messages).toHaveLength(0);
  });

  it('fails without retry when the server refuses every recipient with 550', async () => {
    const smtp = await sink({
      refuseRecipient: () => ({ code: 550, message: 'No such mailbox here' }),
    });
    const form = await formWith(['gone@example.com']);
    const id = await submitJson(form, { message: 'hello' });

    const failure = await failureOf(activityWith(mailerFor(smtp.url())).sendNotificationEmail(id));

    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ nonRetryable: true, type: SMTP_REJECTED_FAILURE });
    expect((failure as ApplicationFailure).message).toContain('No such mailbox here');
    expect((failure as ApplicationFailure).details).toEqual([
      expect.objectContaining({ responseCode: 550, recipients: ['gone@example.com'] }),
    ]);
    expect(smtp.messages).toHaveLength(0);
  });

  it('fails without retry when the server refuses the message itself with 554', async () => {
    const smtp = await sink({ refuseData: { code: 554, message: 'Message looks like spam' } });
    const form = await formWith(['owner@example.com']);
    const id = await submitJson(form, { message: 'hello' });

    const failure = await failureOf(activityWith(mailerFor(smtp.url())).sendNotificationEmail(id));

    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ nonRetryable: true, type: SMTP_REJECTED_FAILURE });
  });

  it('fails retryably when the server defers the message with 451', async () => {
    const smtp = await sink({ refuseData: { code: 451, message: 'Try again later' } });
    const form = await formWith(['owner@example.com']);
    const id = await submitJson(form, { message: 'hello' });

    const failure = await failureOf(activityWith(mailerFor(smtp.url())).sendNotificationEmail(id));

    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ responseCode: 451 });
  });

  it('fails retryably when the server refuses the SMTP_URL credentials (our configuration)', async () => {
    const smtp = await sink({ refuseLogin: true });
    const form = await formWith(['owner@example.com']);
    const id = await submitJson(form, { message: 'hello' });
    const mailer = mailerFor(smtp.url({ user: 'sink-user', pass: 'wrong' }));

    const failure = await failureOf(activityWith(mailer).sendNotificationEmail(id));

    expect(failure).toMatchObject({ code: 'EAUTH', responseCode: 535 });
    expect(failure).not.toBeInstanceOf(ApplicationFailure);
    expect(smtp.messages).toHaveLength(0);
  });

  it('sends to the accepted addresses when the server refuses only some of them', async () => {
    const smtp = await sink({
      refuseRecipient: (address) =>
        address === 'gone@example.com' ? { code: 550, message: 'No such mailbox' } : null,
    });
    const form = await formWith(['owner@example.com', 'gone@example.com']);
    const id = await submitJson(form, { message: 'hello' });

    const result = await activityWith(mailerFor(smtp.url())).sendNotificationEmail(id);

    expect(result).toMatchObject({
      sent: true,
      recipients: ['owner@example.com'],
      rejected: ['gone@example.com'],
    });
    expect(smtp.messages.map((m) => m.rcptTo)).toEqual([['owner@example.com']]);
  });

  it('fails retryably when the SMTP server cannot be reached', async () => {
    const port = await closedPort();
    const form = await formWith(['owner@example.com']);
    const id = await submitJson(form, { message: 'hello' });
    const mailer = mailerFor(`smtp://127.0.0.1:${port}`);

    const failure = await failureOf(activityWith(mailer).sendNotificationEmail(id));

    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(ApplicationFailure);
    expect((failure as Error).message).toContain('ECONNREFUSED');
  });

  it('refuses an SMTP_URL that is not smtp:// or smtps://', () => {
    expect(() => mailerFor('http://127.0.0.1:25')).toThrow(/smtp:\/\/ or smtps:\/\//);
  });
});

describe('the dev mailbox (SMTP_URL unset)', () => {
  it('keeps the message as an .eml file, logs it, and `formward mailbox` shows it', async () => {
    const logLines: string[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          logLines.push(chunk.toString('utf8'));
          done();
        },
      }),
    );
    const dataDir = fs.mkdtempSync(path.join(tempDir, 'data-'));
    const mailer = createMailer({ smtpUrl: undefined, mailFrom: MAIL_FROM, dataDir }, logger);
    cleanups.push(() => mailer.close());
    expect(mailer.kind).toBe('dev-mailbox');
    const form = await formWith(['dev@example.com'], 'Dev Form');
    const id = await submitJson(form, {
      name: 'Ada',
      email: 'ada@example.com',
      message: 'Hallo Welt — ünïcödé',
    });

    const result = await activityWith(mailer).sendNotificationEmail(id);

    expect(result).toMatchObject({ sent: true, recipients: ['dev@example.com'] });
    const mailbox = path.join(dataDir, 'mailbox');
    const files = fs.readdirSync(mailbox);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{8}T\d{9}Z-[0-9a-f]{10}\.eml$/);
    const file = path.join(mailbox, files[0]!);
    const stored = readMimeMessage(fs.readFileSync(file));
    expect(headerValue(stored, 'message-id')).toBe(result.messageId);
    expect(headerValue(stored, 'to')).toBe('dev@example.com');
    expect(headerValue(stored, 'reply-to')).toBe('Ada <ada@example.com>');

    const logged = logLines.map((line) => JSON.parse(line)).find((entry) => entry.file === file);
    expect(logged).toMatchObject({
      to: ['dev@example.com'],
      subject: 'New submission to "Dev Form"',
      file,
    });

    // A second, newer message is listed first.
    const second = await submitJson(form, { message: 'second' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await activityWith(mailer).sendNotificationEmail(second);

    let listing = '';
    await mailboxList({ dataDir }, [], (text) => (listing += text));
    const rows = listing.split('\n');
    expect(rows[0]).toMatch(/^#\s+DATE \(UTC\)\s+TO\s+SUBJECT\s+FILE$/);
    expect(rows[1]).toMatch(
      /^1\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+dev@example\.com\s+New submission to "Dev Form"\s+\S+\.eml$/,
    );
    expect(rows[2]).toContain(files[0]);

    let json = '';
    await mailboxList({ dataDir }, ['--json', '--limit', '1'], (text) => (json += text));
    const listed = JSON.parse(json) as Array<{ index: number; subject: string; messageId: string }>;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ index: 1, subject: 'New submission to "Dev Form"' });
    expect(listed[0]!.messageId).not.toBe(result.messageId);

    let shown = '';
    await mailboxShow({ dataDir }, ['2'], (text) => (shown += text));
    expect(shown).toContain(`File:       ${file}`);
    expect(shown).toContain('Subject:    New submission to "Dev Form"');
    expect(shown).toContain('message: Hallo Welt — ünïcödé');
    expect(shown).toContain(`${t.stack.url}/api/submissions/${id}`);

    let byName = '';
    await mailboxShow({ dataDir }, [files[0]!, '--html'], (text) => (byName += text));
    expect(byName).toContain('Hallo Welt — ünïcödé</span>');

    let raw = '';
    await mailboxShow({ dataDir }, ['2', '--raw'], (text) => (raw += text));
    expect(raw).toBe(fs.readFileSync(file, 'utf8'));
  });

  it('says so when the mailbox is empty and refuses an unknown message', async () => {
    const dataDir = fs.mkdtempSync(path.join(tempDir, 'empty-'));
    let out = '';
    await mailboxList({ dataDir }, [], (text) => (out += text));
    expect(out).toMatch(/dev mailbox .* is empty/);
    await expect(mailboxShow({ dataDir }, ['1'], () => undefined)).rejects.toThrow(
      /no message 1 in the dev mailbox/,
    );
  });
});
