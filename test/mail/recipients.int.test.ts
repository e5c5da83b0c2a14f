import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createTypedPlugin } from '../../src/plugins/manage/plugins';
import { findPart, headerValue, readMimeMessage } from '../../src/domain/mail/mime-reader';
import { markRecipientConfirmed } from '../../src/domain/recipients/confirmations';
import { attemptsOf, FAST_DELIVERY_ENV } from '../support/delivery-attempts';
import { expectAnswer, request, type ApiResponse } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { submitJson } from '../support/ingest-requests';
import { eventually } from '../support/eventually';
import { completedSubmissionWorkflow } from '../support/workflow-probes';
import { startSmtpSink, type SinkMessage, type SmtpSink } from '../support/smtp-sink';

/** The Form resource of a `GET /api/forms/{id}` answer. */
const formOf = (res: ApiResponse) => expectAnswer(res, 'GET /api/forms/{id}', 200).form;

// Recipients confirm before they receive anything, every mail to them has a one-click
// unsubscribe, and an account's submission mail has an hourly budget (docs/security.md, "Recipients
// and mail"): a real worker, ingest, the SMTP sink and an HTTPS webhook receiver.

let smtp: SmtpSink;
let hook: HttpsReceiver;

beforeAll(async () => {
  smtp = await startSmtpSink();
  hook = await startHttpsReceiver(inject('stack').certificates);
});

afterAll(async () => {
  await hook?.close();
  await smtp?.close();
});

const stackWith = (env: Record<string, string> = {}) =>
  useTestStack(() => ({
    worker: true,
    env: {
      ...FAST_DELIVERY_ENV,
      SMTP_URL: smtp.url(),
      MAIL_FROM: 'Formward <forms@formward.test>',
      ...env,
    },
  }));

const stranger = () => `stranger-${randomBytes(4).toString('hex')}@example.net`;
const mailsTo = (address: string) => smtp.messages.filter((m) => m.rcptTo.includes(address));
const subjectOf = (message: SinkMessage) => headerValue(readMimeMessage(message.raw), 'subject');
const textOf = (message: SinkMessage) => findPart(readMimeMessage(message.raw), 'text/plain')!.body;
const isRequest = (message: SinkMessage) => subjectOf(message)?.startsWith('Confirm to receive');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for the one confirmation request to an address and returns its link. */
async function confirmationLink(address: string): Promise<string> {
  const message = await eventually(async () => mailsTo(address).find(isRequest), {
    what: `a confirmation request to ${address}`,
  });
  return /https?:\/\/\S+\/recipients\/confirm\?token=\S+/.exec(textOf(message))![0];
}

/** What a person does with the link: open it (a page with a button), press the button. */
async function followConfirmation(link: string) {
  const page = await request('GET', link);
  expect(page.status).toBe(200);
  expect(page.headers.get('cache-control')).toBe('no-store');
  const action = /<form method="POST" action="([^"]+)"/.exec(page.text)![1]!.replace(/&amp;/g, '&');
  return request('POST', new URL(action, link).toString(), {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
  });
}

describe('recipients confirm before they receive anything', () => {
  const t = stackWith();

  it('a stranger gets one confirmation request and no submission until confirming; other plugins deliver as before', async () => {
    const address = stranger();
    const form = await t.api.createForm({ name: 'Visit https://evil.example now, call me@x.org' });
    const webhook = await t.api.addWebhook(form.id, `${hook.url}/recipients`);

    const patched = await t.api.patch(`/api/forms/${form.id}`, {
      notification_email_addresses: [address, t.email],
    });
    const { form: changed } = expectAnswer(patched, 'PATCH /api/forms/{id}', 200);
    expect(changed.notification_recipients).toEqual([
      { address, confirmed: false },
      { address: t.email, confirmed: true },
    ]);

    const link = await confirmationLink(address);
    const [request1] = mailsTo(address);
    const text = textOf(request1!);
    expect(text).toContain(`Formward account no. ${t.accountId}`);
    expect(text).toContain('"Visit now, call"');
    expect(text).not.toMatch(/evil\.example|me@x\.org/);

    // Added again within the day (by the API and the same list): no second request.
    const again = await t.api.patch(`/api/forms/${form.id}`, {
      notification_email_addresses: [address],
    });
    expect(again.status).toBe(200);
    await pause(500);
    expect(mailsTo(address)).toHaveLength(1);

    // A submission now: stored, delivered to the webhook, not mailed to the stranger.
    const before = hook.received.length;
    const id = await submitJson(form, { email: 'jane@example.com', message: 'before confirming' });
    const result = (await completedSubmissionWorkflow(t.stack, id)) as {
      notification: { sent: boolean; skipped?: string };
    };
    expect(result.notification).toMatchObject({ sent: false, skipped: 'no_confirmed_recipients' });
    expect(mailsTo(address)).toHaveLength(1);
    expect(hook.received.length).toBe(before + 1);
    const [attempt] = await attemptsOf(t.stack, id);
    expect(attempt).toMatchObject({ plugin_id: String(webhook.id), status: 'succeeded' });
    const stored = await t.api.get(`/api/submissions/${id}`);
    const { submission } = expectAnswer(stored, 'GET /api/submissions/{id}', 200);
    expect(submission.payload_json.message).toBe('before confirming');

    // Confirming through the link: the next submission reaches the stranger.
    const confirmed = await followConfirmation(link);
    expect(confirmed.status).toBe(200);
    expect(confirmed.text).toContain('Confirmed');
    const read = await t.api.get(`/api/forms/${form.id}`);
    expect(formOf(read).notification_recipients).toEqual([{ address, confirmed: true }]);
    const second = await submitJson(form, { message: 'after confirming' });
    const delivered = (await completedSubmissionWorkflow(t.stack, second)) as {
      notification: { sent: boolean; recipients: string[] };
    };
    expect(delivered.notification).toMatchObject({ sent: true, recipients: [address] });
    expect(mailsTo(address).filter((m) => !isRequest(m))).toHaveLength(1);

    // The link works once.
    const reused = await request('GET', link);
    expect(reused.status).toBe(400);
  });

  it('every submission mail carries RFC 8058 one-click unsubscribe, and the one-click POST stops further mail', async () => {
    const owner = await t.newTenant(); // its own user's address, which needs no confirmation
    const form = await owner.api.createForm({
      name: 'Unsubscribe',
      notification_email_addresses: [owner.email],
    });
    const first = await submitJson(form, { message: 'one' });
    await completedSubmissionWorkflow(t.stack, first);
    const message = mailsTo(owner.email).at(-1)!;
    const parsed = readMimeMessage(message.raw);
    expect(message.rcptTo).toEqual([owner.email]);
    expect(headerValue(parsed, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const unsubscribe = /^<(https?:\/\/\S+\/recipients\/unsubscribe\?token=\S+)>$/.exec(
      headerValue(parsed, 'list-unsubscribe') ?? '',
    )?.[1];
    expect(unsubscribe).toBeDefined();
    expect(unsubscribe!.startsWith(t.stack.url)).toBe(true);

    // A browser's GET changes nothing: a page with a button.
    const page = await request('GET', unsubscribe!);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Unsubscribe</button>');
    const stillConfirmed = await owner.api.get(`/api/forms/${form.id}`);
    expect(formOf(stillConfirmed).notification_recipients).toEqual([
      { address: owner.email, confirmed: true },
    ]);

    // The mail provider's one-click POST: cross-site, no cookie, no CSRF token.
    const posted = await request('POST', unsubscribe!, {
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://mail.example.com',
      },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(posted.status).toBe(200);
    const forged = await request('POST', `${t.stack.url}/recipients/unsubscribe?token=abc`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(forged.status).toBe(400);

    const after = await owner.api.get(`/api/forms/${form.id}`);
    expect(formOf(after).notification_recipients).toEqual([
      { address: owner.email, confirmed: false },
    ]);
    const count = mailsTo(owner.email).length;
    const second = await submitJson(form, { message: 'two' });
    const result = (await completedSubmissionWorkflow(t.stack, second)) as {
      notification: { skipped?: string };
    };
    expect(result.notification).toMatchObject({ skipped: 'no_confirmed_recipients' });
    await pause(300);
    const later = mailsTo(owner.email).slice(count);
    expect(later.every((m) => isRequest(m))).toBe(true);
  });

  it("the account's own confirmed users need no confirmation; a confirmation is per account", async () => {
    const address = stranger();
    const own = await t.api.createForm({ name: 'Own', notification_email_addresses: [t.email] });
    expect(own.notification_email_addresses).toEqual([t.email]);
    const read = await t.api.get(`/api/forms/${own.id}`);
    expect(formOf(read).notification_recipients).toEqual([{ address: t.email, confirmed: true }]);

    // Account A's confirmation does not let account B mail the address, nor ask again today.
    await t.api.createForm({ name: 'A', notification_email_addresses: [address] });
    await followConfirmation(await confirmationLink(address));
    const other = await t.newTenant();
    const b = await other.api.createForm({ name: 'B', notification_email_addresses: [address] });
    const bRead = await other.api.get(`/api/forms/${b.id}`);
    expect(formOf(bRead).notification_recipients).toEqual([{ address, confirmed: false }]);
    await pause(500);
    expect(mailsTo(address).filter(isRequest)).toHaveLength(1);
    const id = await submitJson(b, { message: 'from B' });
    const result = (await completedSubmissionWorkflow(t.stack, id)) as {
      notification: { skipped?: string };
    };
    expect(result.notification).toMatchObject({ skipped: 'no_confirmed_recipients' });
  });

  it('an e-mail plugin sends only to confirmed recipients and records `skipped` when none is', async () => {
    const address = stranger();
    const form = await t.api.createForm({ name: 'Plugin recipients' });
    const plugin = await createTypedPlugin(
      t.stack.ctx.orm.em.fork(),
      {
        formId: form.id,
        type: 'email',
        config: { recipients: [address], subject: 'New: {field:message}' },
      },
      0,
    );
    const listed = await t.api.get(`/api/forms/${form.id}/plugins/${plugin.id}`);
    const listedPlugin = expectAnswer(listed, 'GET /api/forms/{form_id}/plugins/{id}', 200).plugin;
    expect(listedPlugin.config).toMatchObject({ recipients: [address] });
    expect(listedPlugin.recipients).toEqual([{ address, confirmed: false }]);

    const id = await submitJson(form, { message: 'spam from the operator domain' });
    await completedSubmissionWorkflow(t.stack, id);
    const [skipped] = await attemptsOf(t.stack, id);
    expect(skipped).toMatchObject({ status: 'skipped' });
    expect(skipped!.error).toContain('no confirmed recipients');
    expect(mailsTo(address)).toHaveLength(0);

    await markRecipientConfirmed(t.stack.ctx.orm.em.fork(), t.accountId, address);
    const next = await submitJson(form, { message: 'hello' });
    await completedSubmissionWorkflow(t.stack, next);
    const [sent] = await attemptsOf(t.stack, next);
    expect(sent).toMatchObject({ status: 'succeeded' });
    const [mail] = mailsTo(address);
    expect(subjectOf(mail!)).toBe('New: hello');
    expect(headerValue(readMimeMessage(mail!.raw), 'list-unsubscribe-post')).toBe(
      'List-Unsubscribe=One-Click',
    );
  });
});

describe('the hourly mail budget (ACCOUNT_MAIL_PER_HOUR)', () => {
  const t = stackWith({ ACCOUNT_MAIL_PER_HOUR: '2' });

  // The budget is per clock hour (PostgreSQL's now()): a test that crossed the hour would
  // start on a fresh budget half-way. Begin with two minutes of the hour left at least.
  beforeAll(async () => {
    const msLeftInHour = 3_600_000 - (Date.now() % 3_600_000);
    if (msLeftInHour < 120_000) await pause(msLeftInHour + 1_000);
  });

  it('mail beyond the budget is skipped with the reason and the owner is told once', async () => {
    const form = await t.api.createForm({ name: 'Busy', notification_email_addresses: [t.email] });
    const webhook = await t.api.addWebhook(form.id, `${hook.url}/budget`);
    const plugin = await createTypedPlugin(
      t.stack.ctx.orm.em.fork(),
      {
        formId: form.id,
        type: 'email',
        config: { recipients: [t.email], subject: 'Plugin mail' },
      },
      0,
    );
    const ids: string[] = [];
    const results: Array<{ notification: { sent: boolean; skipped?: string } }> = [];
    for (const n of [1, 2, 3]) {
      const id = await submitJson(form, { message: `busy ${n}` });
      ids.push(id);
      results.push((await completedSubmissionWorkflow(t.stack, id)) as never);
    }
    // Two messages fit in the hour: the first submission's notification and plugin mail.
    expect(results[0]!.notification).toMatchObject({ sent: true });
    expect(results[2]!.notification).toMatchObject({
      sent: false,
      skipped: 'mail_budget_exhausted',
    });
    const third = await attemptsOf(t.stack, ids[2]!);
    expect(third.find((a) => a.plugin_id === String(plugin.id))).toMatchObject({
      status: 'skipped',
      error: 'mail_budget_exhausted',
    });
    // Other plugins are not held back, and every submission is kept.
    expect(third.find((a) => a.plugin_id === String(webhook.id))).toMatchObject({
      status: 'succeeded',
    });
    for (const id of ids) expect((await t.api.get(`/api/submissions/${id}`)).status).toBe(200);

    const notices = await eventually(async () => {
      const found = mailsTo(t.email).filter((m) => subjectOf(m)?.includes('hourly e-mail limit'));
      return found.length > 0 && found;
    });
    await pause(300);
    expect(mailsTo(t.email).filter((m) => subjectOf(m)?.includes('hourly e-mail limit'))).toEqual(
      notices,
    );
    expect(notices).toHaveLength(1);
    const submissionMails = mailsTo(t.email).filter(
      (m) => !subjectOf(m)?.includes('hourly e-mail limit'),
    );
    expect(submissionMails).toHaveLength(2);

    // A replay goes through the same activity, so the same budget: nothing more is sent.
    const replay = await t.api.post(`/api/submissions/${ids[0]}/replay`);
    expect(replay.status, replay.text).toBe(202);
    const replayed = await eventually(async () => {
      const attempts = await attemptsOf(t.stack, ids[0]!);
      return attempts.find((a) => a.is_replay && a.plugin_id === String(plugin.id));
    });
    expect(replayed).toMatchObject({ status: 'skipped', error: 'mail_budget_exhausted' });
    expect(mailsTo(t.email)).toHaveLength(3); // two submission mails and the one notice
  });

  it('confirmation requests count against the budget too, so one account cannot mail endless strangers', async () => {
    const tenant = await t.newTenant();
    const strangers = [stranger(), stranger(), stranger()];
    const form = await tenant.api.createForm({
      name: 'Many strangers',
      notification_email_addresses: strangers,
    });
    expect(form.notification_email_addresses).toEqual(strangers);
    await eventually(async () => strangers.filter((a) => mailsTo(a).length > 0).length === 2);
    await pause(300);
    expect(strangers.map((a) => mailsTo(a).filter(isRequest).length)).toEqual([1, 1, 0]);
  });
});
