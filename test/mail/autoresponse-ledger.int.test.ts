import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswer, type ApiClient } from '../support/api-client';
import { FAST_DELIVERY_ENV } from '../support/delivery-attempts';
import { useTestStack } from '../support/fixture';
import { submitJson } from '../support/ingest-requests';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { completedSubmissionWorkflow } from '../support/workflow-probes';
import { openAppSession } from '../dashboard/dashboard-support';
import { appPost } from '../dashboard/team-support';

// The autoresponse caps count from a ledger no owner action lowers (docs/autoresponse.md,
// "What is kept"): erasing the sender or deleting the form and making another must not let an
// owner's text reach a stranger's address again. Real stack: ingest, worker, PostgreSQL, SMTP sink.

let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
});
afterAll(async () => {
  await smtp?.close();
});

const SETTINGS = {
  subject: 'Thanks from {form}',
  body: 'Visit our offers at https://owner.example/deals',
  reply_to: null,
};

type Result = { autoresponse?: { sent: boolean; skipped?: string } };

describe('the ledger of autoresponses', () => {
  const t = useTestStack(() => ({
    worker: true,
    env: {
      ...FAST_DELIVERY_ENV,
      SMTP_URL: smtp.url(),
      MAIL_FROM: 'Formward <forms@formward.test>',
      AUTORESPONSE_PER_ADDRESS: '2',
    },
  }));
  const mailsTo = (address: string) => smtp.messages.filter((m) => m.rcptTo.includes(address));
  const resultOf = async (id: string) =>
    ((await completedSubmissionWorkflow(t.stack, id)) as Result).autoresponse;

  async function formWithAutoresponse(api: ApiClient, name: string) {
    const form = await api.createForm({ name });
    const patched = await api.patch(`/api/forms/${form.id}`, { autoresponse: SETTINGS });
    expect(expectAnswer(patched, 'PATCH /api/forms/{id}', 200).form.autoresponse).toEqual(SETTINGS);
    return form;
  }

  it('erasing the sender, deleting the form or using another account does not mail the address again past the caps', async () => {
    const victim = `victim-${randomBytes(4).toString('hex')}@example.net`;
    const owner = await openAppSession(t.stack.url, t.email, t.password);
    const form = await formWithAutoresponse(t.api, 'Relay one');
    expect(await resultOf(await submitJson(form, { email: victim }))).toMatchObject({ sent: true });
    expect(mailsTo(victim)).toHaveLength(1);

    // Erase the sender: the submissions go, the ledger stays, so the form's interval holds.
    const erased = await appPost(t.stack.url, owner, '/app/submissions/erase', {
      email: victim,
      confirm: 'yes',
    });
    expect(erased.status, erased.text).toBe(303);
    expect(await t.stack.sql('select 1 from submissions where form_id = ?', [form.id])).toEqual([]);
    expect(await resultOf(await submitJson(form, { email: victim }))).toMatchObject({
      sent: false,
      skipped: 'interval',
    });
    expect(mailsTo(victim)).toHaveLength(1);

    // Delete the form and make another: it may answer (the second of AUTORESPONSE_PER_ADDRESS)...
    const deleted = await appPost(t.stack.url, owner, `/app/forms/${form.id}/delete`);
    expect(deleted.status, deleted.text).toBe(303);
    const second = await formWithAutoresponse(t.api, 'Relay two');
    expect(await resultOf(await submitJson(second, { email: victim }))).toMatchObject({
      sent: true,
    });
    const again = await appPost(t.stack.url, owner, `/app/forms/${second.id}/delete`);
    expect(again.status, again.text).toBe(303);
    // ...but the deleted forms' sends still count: a third form, of this or another account, is capped.
    const third = await formWithAutoresponse(t.api, 'Relay three');
    expect(await resultOf(await submitJson(third, { email: victim }))).toMatchObject({
      sent: false,
      skipped: 'recipient_limit',
    });
    const other = await t.newTenant();
    const theirs = await formWithAutoresponse(other.api, 'Relay elsewhere');
    expect(await resultOf(await submitJson(theirs, { email: victim }))).toMatchObject({
      sent: false,
      skipped: 'recipient_limit',
    });
    expect(mailsTo(victim)).toHaveLength(2);

    // The ledger keeps a keyed hash of the address, never the address.
    const kept = await t.stack.sql<Record<string, unknown>>('select * from autoresponse_sends');
    expect(kept.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(kept)).not.toContain(victim);
  });
});
