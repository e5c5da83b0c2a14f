import { afterAll, describe, expect, inject, it } from 'vitest';
import { createTypedPlugin } from '../../src/plugins/manage/plugins';
import { useTestStack } from '../support/fixture';
import { startHttpsReceiver, type HttpsReceiver, type Responder } from '../support/https-receiver';
import { submitJson } from '../support/ingest-requests';
import { FAST_DELIVERY_ENV, waitForAttempts } from '../support/delivery-attempts';

// The secret values a plugin sends (a webhook header's value, a chat plugin's capability URL)
// are replaced in every recorded answer and error (docs/webhook-delivery.md, The delivery
// log), whatever the receiver echoes back.

const receivers: HttpsReceiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver(responder: Responder) {
  const started = await startHttpsReceiver(inject('stack').certificates, responder);
  receivers.push(started);
  return started;
}

const t = useTestStack(() => ({
  worker: true,
  env: { ...FAST_DELIVERY_ENV, WEBHOOK_ALLOW_PRIVATE: '127.0.0.1' },
}));

/** The stored error and answer of every attempt of the submission, as one text. */
async function recorded(submissionId: string): Promise<string> {
  const rows = await t.stack.sql<{ text: string }>(
    `select coalesce(error, '') || ' ' || coalesce(response_body, '') as text
       from delivery_attempts where submission_id = ?`,
    [submissionId],
  );
  return rows.map((row) => row.text).join('\n');
}

describe('secret values in recorded answers', () => {
  it("are gone from a webhook's record when the receiver echoes its headers", async () => {
    const key = 'sk_live_Echoed0123456789abcdef';
    const echo = await receiver((request) => ({
      status: 200,
      body: JSON.stringify({ youSent: request.headers }),
    }));
    const form = await t.api.createForm({ name: 'Echo' });
    const res = await t.api.post(`/api/forms/${form.id}/plugins`, {
      plugin_type: 'webhook',
      config: { url: `${echo.url}/hook`, headers: [{ name: 'X-Api-Key', value: key }] },
    });
    expect(res.status, res.text).toBe(201);
    const id = await submitJson(form, { message: 'hi' });
    const [attempt] = await waitForAttempts(t.stack, id, 1);
    expect(attempt!.status).toBe('succeeded');
    // The receiver got the key, and echoed it; the record holds the placeholder instead.
    expect((await echo.waitFor(1))[0]!.headers['x-api-key']).toBe(key);
    const text = await recorded(id);
    expect(text).toContain('"x-api-key":"[secret]"');
    expect(text).not.toContain(key);
    const log = await t.api.get(`/api/submissions/${id}/deliveries`);
    expect(log.status, log.text).toBe(200);
    expect(log.text).not.toContain(key);
  });

  it("are gone from a chat plugin's record when the receiver quotes its URL", async () => {
    const path = '/services/T0FORMWARD/B0FORMWARD/ChatHookSecret0123';
    const slack = await receiver((request) => ({
      status: 200,
      body: `ok, posted to ${request.path}`,
    }));
    const form = await t.api.createForm({ name: 'Chat' });
    await createTypedPlugin(
      t.stack.ctx.orm.em.fork(),
      { formId: form.id, type: 'slack', config: { url: `${slack.url}${path}` } },
      0,
    );
    const id = await submitJson(form, { message: 'hi' });
    await waitForAttempts(t.stack, id, 1);
    await slack.waitFor(1);
    const text = await recorded(id);
    expect(text).toContain('ok, posted to [secret]');
    expect(text).not.toContain('ChatHookSecret0123');
  });
});
