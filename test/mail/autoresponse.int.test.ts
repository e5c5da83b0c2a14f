import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPart, headerValue, readMimeMessage } from '../../src/domain/mail/mime-reader';
import { expectAnswer, request, type ApiClient } from '../support/api-client';
import { FAST_DELIVERY_ENV } from '../support/delivery-attempts';
import { useTestStack } from '../support/fixture';
import { postJson } from '../support/ingest-requests';
import { submitJson } from '../support/ingest-requests';
import { eventually } from '../support/eventually';
import { signIn } from '../support/sign-in';
import { completedSubmissionWorkflow, describeWorkflow } from '../support/workflow-probes';
import { startSmtpSink, type SinkMessage, type SmtpSink } from '../support/smtp-sink';
import type { TestStack } from '../support/test-stack';

// The autoresponse to the submitter (docs/autoresponse.md) on the real stack: ingest, a worker
// running the submission workflow, PostgreSQL and the SMTP sink.

let smtp: SmtpSink;
beforeAll(async () => {
  // Addresses starting with `refused-` are refused for good (550), as a mailbox that does not exist.
  smtp = await startSmtpSink({
    refuseRecipient: (address) =>
      address.startsWith('refused-') ? { code: 550, message: 'no such mailbox' } : null,
  });
});
afterAll(async () => {
  await smtp?.close();
});

/** Links in mail name this public URL (https, as RFC 8058 asks); requests go to the stack. */
const PUBLIC_URL = 'https://forms.formward.test';

/** A stack with a worker and the SMTP sink; links name PUBLIC_URL unless `ownUrl` (dashboard sign-in). */
const stackWith = (env: Record<string, string> = {}, ownUrl = false) =>
  useTestStack(() => ({
    worker: true,
    env: {
      ...FAST_DELIVERY_ENV,
      SMTP_URL: smtp.url(),
      MAIL_FROM: 'Formward <forms@formward.test>',
      ...(!ownUrl && { BASE_URL: PUBLIC_URL }),
      ...env,
    },
  }));

const submitter = () => `submitter-${randomBytes(4).toString('hex')}@example.net`;
const mailsTo = (address: string) => smtp.messages.filter((m) => m.rcptTo.includes(address));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const header = (message: SinkMessage, name: string) =>
  headerValue(readMimeMessage(message.raw), name);
const textOf = (message: SinkMessage) => findPart(readMimeMessage(message.raw), 'text/plain')!.body;

type Result = {
  spam: { isSpam: boolean };
  autoresponse?: { sent: boolean; skipped?: string; error?: string };
};
const workflowResult = async (stack: TestStack, id: string) =>
  (await completedSubmissionWorkflow(stack, id)) as Result;

type LogRow = {
  plugin_id: string | null;
  plugin_type: string | null;
  status: string;
  error: string | null;
  is_test: boolean;
};
/** The submission's autoresponse records, as the table keeps them. */
const autoresponseRows = (stack: TestStack, id: string) =>
  stack.sql<LogRow>(
    `select plugin_id::text, plugin_type, status, error, is_test from delivery_attempts
      where submission_id = ? and plugin_type = 'autoresponse' order by attempt`,
    [id],
  );

const SETTINGS = {
  subject: 'Thanks {name}, {form} got it',
  body: 'Hello {name},\n\nYou wrote: {field:message}\nCity: {field:city}{unknown}\n\nThe team',
  reply_to: 'help@owner.example',
};

/** A form of the account with SETTINGS, its ingest URL on the stack (links name PUBLIC_URL). */
async function formWithAutoresponse(api: ApiClient, name: string) {
  const form = await api.createForm({ name });
  const local = new URL(api.baseUrl).origin;
  form.json_url = form.json_url.replace(PUBLIC_URL, local);
  const patched = await api.patch(`/api/forms/${form.id}`, { autoresponse: SETTINGS });
  const changed = expectAnswer(patched, 'PATCH /api/forms/{id}', 200).form;
  expect(changed.autoresponse).toEqual(SETTINGS);
  return form;
}

describe('the autoresponse', () => {
  const t = stackWith();

  it('is null by default, validated, shown as given, and removed with null', async () => {
    const form = await t.api.createForm({ name: 'Settings' });
    expect(form.autoresponse).toBeNull();
    const refused = await t.api.patch(`/api/forms/${form.id}`, {
      autoresponse: { subject: 'a\r\nBcc: x', body: 'x'.repeat(10_001), reply_to: 'nope' },
    });
    expect(refused.status).toBe(422);
    const problems = (refused.body as { errors: string[] }).errors.join('\n');
    expect(problems).toMatch(/autoresponse\.subject/);
    expect(problems).toMatch(/autoresponse\.body/);
    expect(problems).toMatch(/autoresponse\.reply_to/);
    const long = await t.api.patch(`/api/forms/${form.id}`, {
      autoresponse: { ...SETTINGS, subject: 's'.repeat(201) },
    });
    expect(long.status).toBe(422);

    await formWithAutoresponse(t.api, 'Settings 2');
    const cleared = await t.api.patch(`/api/forms/${form.id}`, { autoresponse: null });
    expect(expectAnswer(cleared, 'PATCH /api/forms/{id}', 200).form.autoresponse).toBeNull();
  });

  it('is sent once, merged, without the links and addresses strangers put in, with one-click unsubscribe', async () => {
    const form = await formWithAutoresponse(t.api, 'Contact');
    const address = submitter();
    const id = await submitJson(form, {
      email: address.toUpperCase(),
      name: 'Jane https://evil.example',
      message: 'see evil.com/x or write spam@evil.example, ｅｖｉｌ．ｃｏｍ now',
      city: 'Lyon\r\nBcc: victim@example.org',
    });
    const result = await workflowResult(t.stack, id);
    expect(result.autoresponse).toMatchObject({ sent: true });

    const [mail, ...more] = mailsTo(address);
    expect(more).toHaveLength(0);
    expect(mail!.rcptTo).toEqual([address]);
    expect(header(mail!, 'subject')).toBe('Thanks Jane, Contact got it');
    expect(header(mail!, 'reply-to')).toBe('help@owner.example');
    expect(header(mail!, 'auto-submitted')).toBe('auto-replied');
    expect(header(mail!, 'bcc')).toBeUndefined();
    const text = textOf(mail!);
    expect(text).toContain(
      'Hello Jane,\n\nYou wrote: see or write now\nCity: Lyon Bcc:\n\nThe team',
    );
    expect(text).not.toMatch(/evil|victim|\{unknown\}/i);
    // The submission's receipt (docs/receipts.md) on a line of its own, this instance's.
    const receipt = /Keep it as proof of this submission:\n([\w.-]+)\n/.exec(text)?.[1];
    expect(await t.stack.ctx.receipts.verify(receipt ?? '')).toMatchObject({
      form_id: form.id,
      submission_id: id,
    });
    expect(findPart(readMimeMessage(mail!.raw), 'text/html')).toBeUndefined();

    // RFC 8058: an https List-Unsubscribe URL and the one-click header; the footer names it too.
    expect(header(mail!, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const unsubscribe = /^<(https:\/\/\S+)>$/.exec(header(mail!, 'list-unsubscribe') ?? '')?.[1];
    expect(unsubscribe).toMatch(
      /^https:\/\/forms\.formward\.test\/recipients\/unsubscribe\?token=/,
    );
    expect(text).toContain(unsubscribe!);

    // The delivery log: one attempt, plugin_type autoresponse, no plugin; the API shows it.
    expect(await autoresponseRows(t.stack, id)).toEqual([
      {
        plugin_id: null,
        plugin_type: 'autoresponse',
        status: 'succeeded',
        error: null,
        is_test: false,
      },
    ]);
    const log = expectAnswer(
      await t.api.get(`/api/submissions/${id}/deliveries`),
      'GET /api/submissions/{id}/deliveries',
      200,
    );
    const entry = log.deliveries.find((d) => d.plugin_type === 'autoresponse');
    expect(entry).toMatchObject({ plugin_id: null, status: 'succeeded', attempt: 1 });
    expect(entry!.links.map((l) => l.rel)).toEqual(['submission', 'form']);

    // Within AUTORESPONSE_INTERVAL: not sent again, and not logged (nothing was due).
    const second = await submitJson(form, { email: address, message: 'again' });
    expect((await workflowResult(t.stack, second)).autoresponse).toMatchObject({
      sent: false,
      skipped: 'interval',
    });
    expect(await autoresponseRows(t.stack, second)).toEqual([]);
    await pause(300);
    expect(mailsTo(address)).toHaveLength(1);

    // The interval is per form: another form of the account answers the same address.
    const other = await formWithAutoresponse(t.api, 'Other form');
    const third = await submitJson(other, { email: address });
    expect((await workflowResult(t.stack, third)).autoresponse).toMatchObject({ sent: true });
    expect(mailsTo(address)).toHaveLength(2);

    // One-click unsubscribe (posted the way mail providers do): the account sends it nothing more.
    const path = new URL(unsubscribe!).pathname + new URL(unsubscribe!).search;
    const posted = await request('POST', `${t.stack.url}${path}`, {
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://mail.example',
      },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(posted.status).toBe(200);
    const fresh = await formWithAutoresponse(t.api, 'After unsubscribing');
    const fourth = await submitJson(fresh, { email: address });
    expect((await workflowResult(t.stack, fourth)).autoresponse).toMatchObject({
      sent: false,
      skipped: 'unsubscribed',
    });
    expect(await autoresponseRows(t.stack, fourth)).toMatchObject([
      { plugin_id: null, status: 'skipped', error: 'unsubscribed' },
    ]);
    await pause(300);
    expect(mailsTo(address)).toHaveLength(2);
  });

  it('two submissions at the same moment from one address: one autoresponse', async () => {
    const form = await formWithAutoresponse(t.api, 'Concurrent');
    const address = submitter();
    const ids = await Promise.all(
      [1, 2, 3].map((n) => submitJson(form, { email: address, message: `at once ${n}` })),
    );
    const results = await Promise.all(ids.map((id) => workflowResult(t.stack, id)));
    const sent = results.filter((r) => r.autoresponse?.sent);
    expect(sent).toHaveLength(1);
    expect(results.filter((r) => r.autoresponse?.skipped === 'interval')).toHaveLength(2);
    await pause(300);
    expect(mailsTo(address)).toHaveLength(1);
  });

  it('is not sent for spam, nor without a valid email field', async () => {
    const form = await formWithAutoresponse(t.api, 'Not sent');
    const spammer = submitter();
    const links = 'https://a.example https://b.example https://c.example https://d.example';
    const spam = await submitJson(form, { email: spammer, message: links });
    const spamResult = await workflowResult(t.stack, spam);
    expect(spamResult.spam.isSpam).toBe(true);
    expect(spamResult.autoresponse).toBeUndefined();

    const none = await submitJson(form, { name: 'No address', message: 'hello' });
    expect((await workflowResult(t.stack, none)).autoresponse).toBeUndefined();
    const invalid = await postJson(form.json_url, { email: 'not-an-address', message: 'x' });
    expect(invalid.status).toBe(422);

    await pause(300);
    expect(mailsTo(spammer)).toHaveLength(0);
    expect(await autoresponseRows(t.stack, spam)).toEqual([]);
    expect(await autoresponseRows(t.stack, none)).toEqual([]);
  });

  it("a `?test=true` run sends it to the account's own addresses only (one attempt, marked as a test)", async () => {
    const form = await formWithAutoresponse(t.api, 'Test run');
    const testRun = (email: string) =>
      postJson(
        `${form.json_url}?test=true`,
        { email, message: 'a test' },
        { authorization: `Bearer ${t.adminKey}` },
      );
    // A stranger's address: the owner's key needs no CAPTCHA, so it must not mail strangers.
    const stranger = submitter();
    const refused = await testRun(stranger);
    expect(refused.status, refused.text).toBe(200);
    expect(mailsTo(stranger)).toHaveLength(0);
    expect(await autoresponseRows(t.stack, (refused.body as { id: string }).id)).toMatchObject([
      { status: 'skipped', error: 'test_run_unconfirmed_address', is_test: true },
    ]);

    const before = mailsTo(t.email).length;
    const res = await testRun(t.email);
    expect(res.status, res.text).toBe(200);
    const { id } = res.body as { id: string };
    expect(mailsTo(t.email)).toHaveLength(before + 1);
    expect(await autoresponseRows(t.stack, id)).toMatchObject([
      { status: 'succeeded', is_test: true },
    ]);
  });
});

describe('the autoresponse when it cannot or must not be sent', () => {
  const t = stackWith({}, true);

  it('an SMTP refusal is final: recorded failed, and the address keeps its turn', async () => {
    const form = await formWithAutoresponse(t.api, 'Refused');
    const address = `refused-${submitter()}`;
    const id = await submitJson(form, { email: address, name: 'Jane' });
    const result = await workflowResult(t.stack, id);
    expect(result.autoresponse).toMatchObject({ sent: false });
    expect(result.autoresponse!.error).toContain('SMTP server refused the message');
    const rows = await autoresponseRows(t.stack, id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ plugin_type: 'autoresponse', status: 'failed' });
    const claims = await t.stack.sql('select 1 from autoresponse_sends where submission_id = ?', [
      id,
    ]);
    expect(claims).toHaveLength(0);
  });

  it('a re-delivery (replay) does not send it, even when the form has one now', async () => {
    const form = await t.api.createForm({ name: 'Replayed' });
    const address = submitter();
    const id = await submitJson(form, { email: address });
    expect((await workflowResult(t.stack, id)).autoresponse).toBeUndefined();
    const patched = await t.api.patch(`/api/forms/${form.id}`, { autoresponse: SETTINGS });
    expect(patched.status).toBe(200);
    const replay = await t.api.post(`/api/submissions/${id}/replay`);
    const { workflow_id } = expectAnswer(replay, 'POST /api/submissions/{id}/replay', 202).replay;
    const done = await eventually(async () => {
      const state = await describeWorkflow(t.stack.temporalAddress, workflow_id);
      return state?.status === 'COMPLETED' && (state.result as Result);
    });
    expect(done.autoresponse).toBeUndefined();
    await pause(300);
    expect(mailsTo(address)).toHaveLength(0);
  });

  it("the dashboard's delivery log shows the autoresponse's attempt, linked to the form's settings", async () => {
    const form = await formWithAutoresponse(t.api, 'Logged');
    const id = await submitJson(form, { email: submitter() });
    expect((await workflowResult(t.stack, id)).autoresponse).toMatchObject({ sent: true });
    const cookie = await signIn(t.stack.url, t.email, t.password);
    const page = await request('GET', `${t.stack.url}/app/submissions/${id}/deliveries`, {
      cookie,
    });
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<a href="/app/forms/${form.id}/autoresponse">autoresponse</a>`);
  });
});

describe('the autoresponse within the mail budget and AUTORESPONSE_INTERVAL', () => {
  const t = stackWith({ ACCOUNT_MAIL_PER_HOUR: '2', AUTORESPONSE_INTERVAL: '2s' });

  // The budget is per clock hour: begin with two minutes of the hour left at least.
  beforeAll(async () => {
    const msLeftInHour = 3_600_000 - (Date.now() % 3_600_000);
    if (msLeftInHour < 120_000) await pause(msLeftInHour + 1_000);
  });

  it('is sent again after the interval, and over the budget it is recorded skipped with the reason', async () => {
    const form = await formWithAutoresponse(t.api, 'Busy');
    const address = submitter();
    const first = await submitJson(form, { email: address });
    expect((await workflowResult(t.stack, first)).autoresponse).toMatchObject({ sent: true });
    await pause(2_100);
    const second = await submitJson(form, { email: address });
    expect((await workflowResult(t.stack, second)).autoresponse).toMatchObject({ sent: true });
    expect(mailsTo(address)).toHaveLength(2);

    // The account's two mails of the hour are used: the next autoresponse is skipped.
    const late = submitter();
    const third = await submitJson(form, { email: late });
    expect((await workflowResult(t.stack, third)).autoresponse).toMatchObject({
      sent: false,
      skipped: 'mail_budget_exhausted',
    });
    expect(await autoresponseRows(t.stack, third)).toMatchObject([
      { plugin_id: null, status: 'skipped', error: 'mail_budget_exhausted' },
    ]);
    await pause(300);
    expect(mailsTo(late)).toHaveLength(0);
    // Nothing went out, so the address keeps its turn: no claim is left for it.
    const claims = await t.stack.sql('select 1 from autoresponse_sends where submission_id = ?', [
      third,
    ]);
    expect(claims).toHaveLength(0);
  });
});
