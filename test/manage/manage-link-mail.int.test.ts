import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPart, readMimeMessage } from '../../src/domain/mail/mime-reader';
import { expectAnswer, request } from '../support/api-client';
import { FAST_DELIVERY_ENV } from '../support/delivery-attempts';
import { useTestStack } from '../support/fixture';
import { ingestResultOf, postJson } from '../support/ingest-requests';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { completedSubmissionWorkflow } from '../support/workflow-probes';

// The autoresponse carries a manage link of its own (docs/manage-links.md): a secret made
// when the mail goes, stored as its hash only; it opens the submission, and so does the link
// the ingest answer gave.

let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink({});
});
afterAll(async () => {
  await smtp?.close();
});

const t = useTestStack(() => ({
  worker: true,
  env: { ...FAST_DELIVERY_ENV, SMTP_URL: smtp.url(), MAIL_FROM: 'Formward <forms@formward.test>' },
}));

const SETTINGS = { subject: 'Thanks', body: 'We got it.', reply_to: null };

describe('the autoresponse', () => {
  it('carries its own manage link, stored hashed, beside the one the answer gave', async () => {
    const form = await t.api.createForm({ name: 'Mailed', submitter_access: 'edit' });
    await t.api.patch(`/api/forms/${form.id}`, { autoresponse: SETTINGS });
    const address = `submitter-${randomBytes(4).toString('hex')}@example.net`;
    const result = ingestResultOf(await postJson(form.json_url, { email: address, name: 'Jo' }));
    await completedSubmissionWorkflow(t.stack, result.id);

    const mail = smtp.messages.find((m) => m.rcptTo.includes(address))!;
    const text = findPart(readMimeMessage(mail.raw), 'text/plain')!.body;
    const mailed = new RegExp(`${t.stack.url}/s/${result.id}/[A-Za-z0-9_-]{43}`).exec(text)?.[0];
    expect(mailed).toBeDefined();
    expect(mailed).not.toBe(result.manage_url);
    expect(text).toContain('keep it to yourself');

    const [row] = await t.stack.sql<{ text: string; mail_key_hash: string | null }>(
      'select row_to_json(s)::text as text, mail_key_hash from submissions s where id = ?',
      [result.id],
    );
    expect(row!.mail_key_hash).toEqual(expect.any(String));
    expect(row!.text).not.toContain(mailed!.split('/').pop()!);

    for (const link of [mailed!, result.manage_url!]) {
      const res = await request('GET', link, { headers: { accept: 'application/json' } });
      const body = expectAnswer(res, 'GET /s/{submission_id}/{secret}', 200);
      expect(body.submission).toMatchObject({ id: result.id, can_edit: true });
    }
  });

  it('carries no link when the form gives no access', async () => {
    const form = await t.api.createForm({ name: 'Plain mailed' });
    await t.api.patch(`/api/forms/${form.id}`, { autoresponse: SETTINGS });
    const address = `submitter-${randomBytes(4).toString('hex')}@example.net`;
    const result = ingestResultOf(await postJson(form.json_url, { email: address }));
    await completedSubmissionWorkflow(t.stack, result.id);
    const mail = smtp.messages.find((m) => m.rcptTo.includes(address))!;
    const text = findPart(readMimeMessage(mail.raw), 'text/plain')!.body;
    expect(text).not.toContain('/s/');
    const [row] = await t.stack.sql<{ mail_key_hash: string | null }>(
      'select mail_key_hash from submissions where id = ?',
      [result.id],
    );
    expect(row!.mail_key_hash).toBeNull();
  });
});
