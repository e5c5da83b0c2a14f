import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { expectAnswer, hrefOf, type ApiResponse } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import {
  serviceSignatureValid,
  standardSignatureValid,
  startHttpsReceiver,
  type HttpsReceiver,
  type ReceivedWebhook,
} from '../support/https-receiver';
import { submitJson } from '../support/ingest-requests';
import { attemptsOf, FAST_DELIVERY_ENV, waitForAttempts } from '../support/delivery-attempts';

// The story of issue 11 in one run (docs/endpoint-health.md, docs/recovery.md): a receiver
// dies, its webhook is disabled after the threshold with one e-mail, later submissions are
// skipped; the receiver is fixed, the webhook enabled again, and one recovery brings every
// failed and skipped submission back exactly once, under the webhook-id it was first given.

let sink: SmtpSink;
let receiverUp = false;
let hook: HttpsReceiver;

beforeAll(async () => {
  sink = await startSmtpSink();
  hook = await startHttpsReceiver(inject('stack').certificates, () =>
    receiverUp ? { status: 200, body: 'ok' } : { status: 503, body: 'down for the day' },
  );
});
afterAll(async () => {
  await hook?.close();
  await sink?.close();
});

const t = useTestStack(() => ({
  worker: true,
  env: {
    ...FAST_DELIVERY_ENV,
    SMTP_URL: sink.url(),
    PLUGIN_DISABLE_AFTER_FAILURES: '3',
    PLUGIN_DISABLE_AFTER: '0s',
  },
}));

const submissionOf = (request: ReceivedWebhook) => String(JSON.parse(request.body).id);

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('a dead webhook, disabled, then recovered', () => {
  it('disables after 3 exhausted deliveries, skips, and one recovery delivers each once under its first webhook-id', async () => {
    const form = await t.api.createForm({ name: 'Dead endpoint' });
    const plugin = await t.api.addWebhook(form.id, `${hook.url}/hook`);
    const pluginOf = (res: ApiResponse) =>
      expectAnswer(res, 'GET /api/forms/{form_id}/plugins/{id}', 200).plugin;
    const path = `/api/forms/${form.id}/plugins/${plugin.id}`;
    const since = new Date(Date.now() - 60_000).toISOString();

    // Three submissions exhaust their attempts: the third disables the webhook.
    const failed: string[] = [];
    for (const n of [1, 2, 3]) {
      const id = await submitJson(form, { email: 'ada@example.com', message: `lost ${n}` });
      await waitForAttempts(t.stack, id, 4, 40_000);
      failed.push(id);
    }
    const disabled = await until(
      async () => pluginOf(await t.api.get(path)),
      (p) => p.enabled === false,
    );
    expect(disabled.disabled_reason).toMatch(/^3 consecutive deliveries failed since /);
    await until(
      async () => sink.messages.filter((m) => m.rcptTo.includes(t.email)),
      (mails) => mails.length > 0,
    );

    // Disabled: two more submissions are recorded as skipped and sent nowhere.
    const received = hook.received.length;
    const skipped: string[] = [];
    for (const n of [4, 5]) {
      const id = await submitJson(form, { email: 'ada@example.com', message: `skipped ${n}` });
      await waitForAttempts(t.stack, id, 1);
      skipped.push(id);
    }
    for (const id of skipped) {
      expect((await attemptsOf(t.stack, id)).map((a) => [a.attempt, a.status])).toEqual([
        [1, 'skipped'],
      ]);
    }
    expect(hook.received).toHaveLength(received);
    expect(sink.messages.filter((m) => m.rcptTo.includes(t.email))).toHaveLength(1);

    // The receiver is fixed; the webhook is enabled again and its five submissions recovered.
    receiverUp = true;
    const enabled = await t.api.patch(path, { enabled: true });
    const { plugin: reenabled } = expectAnswer(
      enabled,
      'PATCH /api/forms/{form_id}/plugins/{id}',
      200,
    );
    expect(reenabled).toMatchObject({ enabled: true, consecutive_failures: 0 });
    const firstIds = new Map<string, { deliveryId: string; attempts: number }>();
    for (const id of [...failed, ...skipped]) {
      const attempts = await attemptsOf(t.stack, id);
      firstIds.set(id, { deliveryId: attempts[0]!.delivery_id, attempts: attempts.length });
    }
    const before = hook.received.length;
    const started = await t.api.post(`${path}/recover`, { since });
    const run = expectAnswer(started, 'POST /api/forms/{form_id}/plugins/{id}/recover', 202);
    expect(run.recovery.total).toBe(5);
    const progress = new URL(hrefOf(run.recovery.links, 'self')!).pathname;
    const recoveryOf = (res: ApiResponse) =>
      expectAnswer(res, 'GET /api/forms/{form_id}/plugins/{plugin_id}/recoveries/{id}', 200)
        .recovery;
    const finished = await until(
      async () => recoveryOf(await t.api.get(progress)),
      (run) => run.status !== 'running',
    );
    expect(finished).toMatchObject({ status: 'completed', total: 5, done: 5, failed: 0 });

    // Each arrives once, under the delivery id of its failed or skipped delivery, signed.
    const recovered = hook.received.slice(before);
    expect(recovered.map(submissionOf).sort()).toEqual([...failed, ...skipped].sort());
    for (const request of recovered) {
      const first = firstIds.get(submissionOf(request))!;
      expect(request.headers['webhook-id']).toBe(first.deliveryId);
      expect(request.headers['x-formward-attempt']).toBe(String(first.attempts + 1));
      expect(serviceSignatureValid(request, plugin.signing_secret)).toBe(true);
      expect(standardSignatureValid(request, plugin.signing_secret)).toBe(true);
      const attempts = await attemptsOf(t.stack, submissionOf(request));
      expect(attempts.at(-1)).toMatchObject({
        delivery_id: first.deliveryId,
        attempt: first.attempts + 1,
        status: 'succeeded',
      });
    }
    const healthy = pluginOf(await t.api.get(path));
    expect(healthy).toMatchObject({ enabled: true, consecutive_failures: 0 });
    expect(healthy.last_success_at).not.toBeNull();
  });
});
