import fs from 'node:fs';
import tls from 'node:tls';
import { CancelledFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import pino from 'pino';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { deliverWith } from '../../src/plugins/deliveries';
import { webhookType } from '../../src/plugins/webhook/declaration';
import { parseAllowList } from '../../src/outbound/address-policy';
import { createOutboundSender } from '../../src/outbound/sender';
import { useTestStack } from '../support/fixture';
import { submitJson } from '../support/ingest-requests';
import { attemptsOf } from '../support/delivery-attempts';
import {
  startProcessingLoopReceiver,
  startTricklingReceiver,
  type RawTlsReceiver,
} from './raw-tls-receiver';

// The per-attempt deadline of the webhook sender (docs/webhook-delivery.md): undici's header and
// body timeouts are idle timeouts, so a receiver that keeps the connection busy without ever
// finishing must still be cut at connect + read timeout.

const CONNECT_MS = 1_000;
const READ_MS = 1_000;
const DEADLINE_MS = CONNECT_MS + READ_MS;

const { certificates } = inject('stack');

const t = useTestStack(() => ({
  worker: true,
  env: {
    WEBHOOK_ALLOW_PRIVATE: '127.0.0.1',
    WEBHOOK_RETRY_INITIAL_INTERVAL: '1s',
    WEBHOOK_CONNECT_TIMEOUT: `${CONNECT_MS}ms`,
    WEBHOOK_READ_TIMEOUT: `${READ_MS}ms`,
  },
}));

const receivers: RawTlsReceiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

const ca = fs.readFileSync(certificates.caCertFile);
const sender = createOutboundSender({
  connectTimeoutMs: CONNECT_MS,
  readTimeoutMs: READ_MS,
  allowList: parseAllowList(['127.0.0.1']),
  lookupHost: async (host) => [host],
  dial: (options) => tls.connect({ ...options, ca }),
});
afterAll(() => sender.close());

const request = (url: string, signal?: AbortSignal) =>
  sender.send({ url, body: '{}', headers: { 'content-type': 'application/json' }, signal });

describe('the per-attempt deadline', () => {
  it('cuts a receiver that trickles its body one byte at a time', async () => {
    const hook = await startTricklingReceiver(certificates);
    receivers.push(hook);
    const result = await request(hook.url);
    expect(hook.requests()).toBe(1);
    expect(result).toMatchObject({ ok: false, failure: 'read_timeout', statusCode: null });
    expect(result.error).toMatch(/deadline/);
    expect(result.durationMs).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    expect(result.durationMs).toBeLessThan(DEADLINE_MS + 1_000);
  }, 15_000);

  it('cuts a receiver that answers 102 Processing forever', async () => {
    const hook = await startProcessingLoopReceiver(certificates);
    receivers.push(hook);
    const result = await request(hook.url);
    expect(hook.requests()).toBe(1);
    expect(result).toMatchObject({ ok: false, failure: 'read_timeout', statusCode: null });
    expect(result.error).toMatch(/deadline/);
    expect(result.durationMs).toBeLessThan(DEADLINE_MS + 1_000);
  }, 15_000);

  it('aborts at once when the caller cancels (Temporal cancellation)', async () => {
    const hook = await startTricklingReceiver(certificates);
    receivers.push(hook);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('activity cancelled')), 300);
    const result = await request(hook.url, controller.signal);
    expect(result).toMatchObject({ ok: false, failure: 'cancelled', statusCode: null });
    expect(result.error).toMatch(/cancelled/);
    expect(result.durationMs).toBeLessThan(900);
  }, 15_000);
});

describe('a delivery to a receiver that never finishes', () => {
  it('records the attempt as failed at the deadline, and retries', async () => {
    const hook = await startTricklingReceiver(certificates);
    receivers.push(hook);
    const form = await t.api.createForm({ name: 'Trickled webhook' });
    await t.api.addWebhook(form.id, hook.url);
    const started = Date.now();
    const id = await submitJson(form, { email: 'ada@example.com' });
    // Attempt 1 recorded with the deadline's error shows the request was cut before the
    // activity's start-to-close timeout (a timed-out activity records nothing). No tighter
    // clock here: on a loaded machine the workflow may start seconds late.
    for (;;) {
      const [first] = await attemptsOf(t.stack, id);
      if (first) {
        expect(first).toMatchObject({ attempt: 1, status: 'pending_retry', http_status: null });
        expect(first.error).toMatch(/deadline of 2000 ms/);
        break;
      }
      expect(Date.now() - started).toBeLessThan(15_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    while (hook.requests() < 2) {
      expect(Date.now() - started).toBeLessThan(25_000); // the retry follows about 1 s later
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, 40_000);

  it('an attempt cancelled by Temporal stops its request, records itself and reports the cancellation', async () => {
    const hook = await startTricklingReceiver(certificates);
    receivers.push(hook);
    const form = await t.api.createForm({ name: 'Cancelled webhook' });
    const plugin = await t.api.addWebhook(form.id, hook.url);
    const submissionId = await submitJson(form, { email: 'ada@example.com' });
    const deliveryId = `msg_cancel_${Date.now()}`;
    const deliverWebhook = deliverWith(webhookType, {
      orm: t.stack.ctx.orm,
      sender,
      logger: pino({ level: 'silent' }),
      signingSecrets: t.stack.ctx.signingSecrets,
      pluginSecrets: t.stack.ctx.pluginSecrets,
      mailer: t.stack.ctx.accounts.mailing.mailer,
      baseUrl: t.stack.url,
      pluginHealth: t.stack.config.pluginHealth,
      unsubscribeTokens: t.stack.ctx.unsubscribeTokens,
      mailPerHour: t.stack.config.accountMailPerHour,
      providerUrls: t.stack.config.providerUrls,
    });
    const env = new MockActivityEnvironment({ attempt: 1 });
    setTimeout(() => env.cancel('CANCELLED'), 300);
    const started = Date.now();
    const outcome = env.run(deliverWebhook, {
      submissionId,
      pluginId: String(plugin.id),
      deliveryId,
      mode: 'live' as const,
      maxAttempts: 4,
    });
    await expect(outcome).rejects.toBeInstanceOf(CancelledFailure);
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS);
    const records = await t.stack.sql<{ status: string; error: string }>(
      'select status, error from delivery_attempts where delivery_id = ?',
      [deliveryId],
    );
    expect(records).toHaveLength(1);
    expect(records[0]!.error).toMatch(/attempt cancelled/);
  }, 30_000);
});
