import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { attemptsOf, fastDeliveryEnv, waitForAttempts } from '../support/delivery-attempts';
import { startDnsServer, type DnsServer } from '../support/dns-server';
import { useTestStack } from '../support/fixture';
import { startHttpsReceiver, type HttpsReceiver, type Responder } from '../support/https-receiver';
import { ingestResultOf, postJson, submitJson } from '../support/ingest-requests';
import { completedSubmissionWorkflow, submissionCommands } from '../support/workflow-probes';

// patched('local-first-attempt') end to end: real ingest, worker, Temporal dev server and HTTPS
// receivers. Each delivery's first attempt is a local activity (a marker in the history); its
// retries are the regular activity after a timer, numbered on, under the same delivery id. The
// stack retries after 1 s, then 2 s, 4 s (test/support/delivery-attempts.ts).

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

/** A form with one webhook to a new receiver answering as `responder` says. */
async function webhookForm(responder?: Responder) {
  const hook = await startHttpsReceiver(inject('stack').certificates, responder);
  receivers.push(hook);
  const form = await t.api.createForm({ name: `Local first ${Math.random().toString(36)}` });
  const plugin = await t.api.addWebhook(form.id, hook.url);
  return { hook, form, plugin };
}

const fields = { email: 'ada@example.com', message: 'first attempt' };
type Result = { deliveries: Array<{ ok: boolean; attempts: number; deliveryId: string }> };

describe('a delivery whose first attempt is a local activity', () => {
  it('succeeds on it: one attempt record and no regular activity in the history', async () => {
    const { hook, form } = await webhookForm();
    const id = await submitJson(form, fields);
    const attempts = await waitForAttempts(t.stack, id, 1);
    expect(attempts.map((a) => [a.attempt, a.status])).toEqual([[1, 'succeeded']]);
    const result = (await completedSubmissionWorkflow(t.stack, id)) as Result;
    expect(result.deliveries).toEqual([expect.objectContaining({ ok: true, attempts: 1 })]);
    expect(hook.received.map((r) => r.headers['x-formward-attempt'])).toEqual(['1']);
    const commands = await submissionCommands(t.stack, id);
    expect(
      commands.filter((c) => c.kind !== 'activity' || c.name !== 'sendNotificationEmail'),
    ).toEqual([
      { kind: 'local', name: 'checkSpam' },
      { kind: 'local', name: 'planDeliveries' },
      { kind: 'local', name: 'deliverWebhook' },
    ]);
  });

  it('fails once: a timer of the first interval, then the regular activity numbering on', async () => {
    const { hook, form } = await webhookForm((_req, n) => ({ status: n === 1 ? 503 : 200 }));
    const id = await submitJson(form, fields);
    const attempts = await waitForAttempts(t.stack, id, 2);
    expect(attempts.map((a) => [a.attempt, a.status, a.http_status])).toEqual([
      [1, 'pending_retry', 503],
      [2, 'succeeded', 200],
    ]);
    const [first, second] = hook.received;
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(new Set(attempts.map((a) => a.delivery_id))).toEqual(
      new Set([first!.headers['webhook-id']]),
    );
    expect(hook.received.map((r) => r.headers['x-formward-attempt'])).toEqual(['1', '2']);
    const result = (await completedSubmissionWorkflow(t.stack, id)) as Result;
    expect(result.deliveries).toEqual([expect.objectContaining({ ok: true, attempts: 2 })]);

    const deliveries = (await submissionCommands(t.stack, id)).filter(
      (c) => c.kind === 'timer' || c.name === 'deliverWebhook',
    );
    // Attempt 2 at +1 s; the regular activity's own backoff starts at the second interval.
    expect(deliveries).toEqual([
      { kind: 'local', name: 'deliverWebhook' },
      { kind: 'timer', ms: 1000 },
      {
        kind: 'activity',
        name: 'deliverWebhook',
        initialIntervalMs: 2000,
        maximumAttempts: 3,
        input: expect.objectContaining({ maxAttempts: 3, attemptOffset: 1 }),
      },
    ]);
  });

  it('fails every attempt: four records under one id, the last one failed', async () => {
    const { form } = await webhookForm(() => ({ status: 500, body: 'down' }));
    const id = await submitJson(form, fields);
    const attempts = await waitForAttempts(t.stack, id, 4, 40_000);
    expect(attempts.map((a) => [a.attempt, a.status])).toEqual([
      [1, 'pending_retry'],
      [2, 'pending_retry'],
      [3, 'pending_retry'],
      [4, 'failed'],
    ]);
    expect(new Set(attempts.map((a) => a.delivery_id)).size).toBe(1);
    const result = (await completedSubmissionWorkflow(t.stack, id)) as Result;
    expect(result.deliveries).toEqual([expect.objectContaining({ ok: false, attempts: 4 })]);
  });

  it("waits the receiver's Retry-After before the second attempt", async () => {
    const { hook, form } = await webhookForm((_req, n) =>
      n === 1 ? { status: 429, headers: { 'retry-after': '3' } } : { status: 200 },
    );
    const id = await submitJson(form, fields);
    const attempts = await waitForAttempts(t.stack, id, 2);
    expect(attempts.map((a) => [a.attempt, a.status])).toEqual([
      [1, 'pending_retry'],
      [2, 'succeeded'],
    ]);
    const [first, second] = hook.received;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(2_900);
    const commands = await submissionCommands(t.stack, id);
    expect(commands).toContainEqual({ kind: 'timer', ms: 3000 });
  });

  it('gives `?test=true` its one attempt, local, and no retry', async () => {
    const { hook, form } = await webhookForm(() => ({ status: 500 }));
    const res = await postJson(`${form.json_url}?test=true`, fields, {
      authorization: `Bearer ${t.adminKey}`,
    });
    expect(res.status, res.text).toBe(200);
    expect(ingestResultOf(res).deliveries).toEqual([
      expect.objectContaining({ ok: false, status_code: 500, attempts: 1 }),
    ]);
    const id = ingestResultOf(res).id;
    expect((await attemptsOf(t.stack, id)).map((a) => [a.attempt, a.status, a.is_test])).toEqual([
      [1, 'failed', true],
    ]);
    expect(hook.received).toHaveLength(1);
    const commands = await submissionCommands(t.stack, id);
    expect(commands.filter((c) => c.kind === 'timer' || c.name === 'deliverWebhook')).toEqual([
      { kind: 'local', name: 'deliverWebhook' },
    ]);
  });
});
