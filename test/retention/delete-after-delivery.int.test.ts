import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectAnswer, expectError, expectValidationError } from '../support/api-client';
import { fastDeliveryEnv, waitForAttempts } from '../support/delivery-attempts';
import { startDnsServer, type DnsServer } from '../support/dns-server';
import { useTestStack } from '../support/fixture';
import { startHttpsReceiver, type HttpsReceiver, type Responder } from '../support/https-receiver';
import { submitJson } from '../support/ingest-requests';
import { retentionScheduleOf, temporalClientOf } from '../support/retention-runs';
import { completedSubmissionWorkflow } from '../support/workflow-probes';

// `delete_after_delivery` (docs/retention.md) end to end: real ingest, the real worker and its
// workflow's last step, real HTTPS receivers; and the two fields through PATCH /api/forms/{id}.

let dns: DnsServer;
const receivers: HttpsReceiver[] = [];
beforeAll(async () => {
  dns = await startDnsServer({});
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await dns?.close();
});

const t = useTestStack(() => ({ worker: true, env: fastDeliveryEnv(dns.address) }));
afterAll(async () => {
  const temporal = await temporalClientOf(t.stack);
  await retentionScheduleOf(temporal.client, t.stack)
    .delete()
    .catch(() => undefined);
  await temporal.close();
});

async function receiver(responder?: Responder) {
  const started = await startHttpsReceiver(inject('stack').certificates, responder);
  receivers.push(started);
  return started;
}

/** A form with these retention settings and a webhook to each receiver. */
async function formWith(settings: Record<string, unknown>, hooks: HttpsReceiver[]) {
  const form = await t.api.createForm({ name: `Retention ${Math.random().toString(36).slice(2)}` });
  const res = await t.api.patch(`/api/forms/${form.id}`, settings);
  const patched = expectAnswer(res, 'PATCH /api/forms/{id}', 200).form;
  for (const hook of hooks) await t.api.addWebhook(form.id, `${hook.url}/hook`);
  return patched;
}

const stored = async (id: string) =>
  (await t.stack.sql('select id from submissions where id = ?', [id])).length === 1;

const formCounts = async (formId: string) => {
  const form = expectAnswer(
    await t.api.get(`/api/forms/${formId}`),
    'GET /api/forms/{id}',
    200,
  ).form;
  return [form.submission_count, form.submission_spam_count];
};

describe('delete_after_delivery', () => {
  it('deletes a submission once every delivery succeeded; its counts stay', async () => {
    const one = await receiver();
    const two = await receiver();
    const form = await formWith({ delete_after_delivery: true }, [one, two]);
    const id = await submitJson(form, { email: 'ada@example.com', message: 'deliver me' });

    await completedSubmissionWorkflow(t.stack, id);
    expect(one.received).toHaveLength(1);
    expect(two.received).toHaveLength(1);
    expect(await stored(id)).toBe(false);
    expect(
      await t.stack.sql('select id from delivery_attempts where submission_id = ?', [id]),
    ).toEqual([]);
    expectError(await t.api.get(`/api/submissions/${id}`), 404, 'not_found');
    expect(await formCounts(form.id)).toEqual([1, 0]);
    const stats = await t.api.get(`/api/form_stats/${form.id}`);
    expect(expectAnswer(stats, 'GET /api/form_stats/{form_id}', 200).stats).toMatchObject({
      total_submissions: 1,
      subs24h: 1,
    });
  });

  it('keeps a submission one of whose deliveries failed', { timeout: 60_000 }, async () => {
    const ok = await receiver();
    const broken = await receiver(() => ({ status: 500 }));
    const form = await formWith({ delete_after_delivery: true, retention_days: 30 }, [ok, broken]);
    const id = await submitJson(form, { message: 'half delivered' });

    await completedSubmissionWorkflow(t.stack, id, 40_000);
    const attempts = await waitForAttempts(t.stack, id, 5);
    expect(attempts.filter((a) => a.status === 'failed')).toHaveLength(1);
    expect(await stored(id)).toBe(true);
  });

  it('keeps delivered submissions of a form that does not ask for it', async () => {
    const hook = await receiver();
    const form = await formWith({ retention_days: 30 }, [hook]);
    expect(form.delete_after_delivery).toBe(false);
    const id = await submitJson(form, { message: 'keep me' });
    await completedSubmissionWorkflow(t.stack, id);
    expect(hook.received).toHaveLength(1);
    expect(await stored(id)).toBe(true);
  });

  it('keeps a submission of a form without plugins: it was delivered nowhere', async () => {
    const form = await formWith({ delete_after_delivery: true }, []);
    const id = await submitJson(form, { message: 'nowhere to go' });
    await completedSubmissionWorkflow(t.stack, id);
    expect(await stored(id)).toBe(true);
  });
});

describe('PATCH /api/forms/{id}: retention_days and delete_after_delivery', () => {
  it('a new form keeps for ever and does not delete after delivery', async () => {
    const form = await t.api.createForm({ name: 'Defaults' });
    expect(form).toMatchObject({ retention_days: null, delete_after_delivery: false });
  });

  it('takes 1 to 3650 days or null, and a boolean', async () => {
    const form = await t.api.createForm({ name: 'Limits' });
    const patch = (body: unknown) => t.api.patch(`/api/forms/${form.id}`, body);
    for (const days of [1, 3650]) {
      const res = await patch({ retention_days: days, delete_after_delivery: true });
      expect(expectAnswer(res, 'PATCH /api/forms/{id}', 200).form).toMatchObject({
        retention_days: days,
        delete_after_delivery: true,
      });
    }
    const cleared = await patch({ retention_days: null });
    expect(expectAnswer(cleared, 'PATCH /api/forms/{id}', 200).form).toMatchObject({
      retention_days: null,
      delete_after_delivery: true,
    });
    const read = await t.api.get(`/api/forms/${form.id}`);
    expect(expectAnswer(read, 'GET /api/forms/{id}', 200).form.retention_days).toBeNull();
  });

  it.each([[0], [3651], [-5], [1.5], ['30'], [true]])(
    'refuses retention_days %j with 422 validation_failed',
    async (days) => {
      const form = await t.api.createForm({ name: 'Refused' });
      const res = await t.api.patch(`/api/forms/${form.id}`, { retention_days: days });
      expectValidationError(res, 'retention_days');
      const read = await t.api.get(`/api/forms/${form.id}`);
      expect(expectAnswer(read, 'GET /api/forms/{id}', 200).form.retention_days).toBeNull();
    },
  );

  it('refuses a delete_after_delivery that is not a boolean', async () => {
    const form = await t.api.createForm({ name: 'Refused flag' });
    const res = await t.api.patch(`/api/forms/${form.id}`, { delete_after_delivery: 'yes' });
    expectValidationError(res, 'delete_after_delivery');
  });
});
