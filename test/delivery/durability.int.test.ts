import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { freePort } from '../../src/embedded/free-port';
import { useTestStack } from '../support/fixture';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { submitJson } from '../support/ingest-requests';
import { useOwnTemporal } from '../support/own-temporal';
import { compileService, spawnWorkerProcess } from '../support/worker-process';
import { completedSubmissionWorkflow } from '../support/workflow-probes';
import { waitForAttempts } from '../support/delivery-attempts';

// Durability (issue 3): a worker killed in the middle of a delivery and Temporal stopped
// while submissions arrive lose nothing.

const KNOBS = {
  WEBHOOK_ALLOW_PRIVATE: '127.0.0.1',
  WEBHOOK_RETRY_INITIAL_INTERVAL: '1s',
  WEBHOOK_RETRY_BACKOFF_COEFFICIENT: '2',
  WEBHOOK_CONNECT_TIMEOUT: '1s',
  WEBHOOK_READ_TIMEOUT: '1s',
};
const fields = { email: 'grace@example.com', message: 'durable' };

describe('a worker process killed in the middle of a delivery', () => {
  const t = useTestStack({ env: KNOBS });
  let build: ReturnType<typeof compileService>;
  let receiver: HttpsReceiver;
  const workers: ChildProcess[] = [];

  beforeAll(() => {
    // A separate process, so it can be killed without warning (an in-process worker cannot).
    build = compileService('durability');
  });

  afterAll(async () => {
    for (const child of workers) child.kill('SIGKILL');
    await receiver?.close();
    build?.remove();
  });

  const startWorkerProcess = () => {
    const child = spawnWorkerProcess(build.dir, t.stack, KNOBS);
    workers.push(child);
    return child;
  };

  it('the delivery is retried on another worker and completes', { timeout: 120_000 }, async () => {
    receiver = await startHttpsReceiver(inject('stack').certificates, async (_request, n) => {
      // Hold the first request: its worker dies while waiting for the answer.
      if (n === 1) return { status: 200, delayMs: 30_000 };
      return { status: 200, body: 'second worker' };
    });
    const form = await t.api.createForm({ name: 'Killed worker' });
    await t.api.addWebhook(form.id, receiver.url);

    const first = startWorkerProcess();
    const id = await submitJson(form, fields);
    const [held] = await receiver.waitFor(1, 60_000);
    first.kill('SIGKILL');
    startWorkerProcess();

    const [, retried] = await receiver.waitFor(2, 60_000);
    expect(retried!.headers['webhook-id']).toBe(held!.headers['webhook-id']);
    const attempts = await waitForAttempts(t.stack, id, 1, 60_000);
    // The killed attempt left no record (its outcome is unknown); the retry is recorded. The
    // first attempt is a local activity: the next worker's workflow task runs it again, still
    // attempt 1, since no marker says it ran (docs/webhook-delivery.md, "The Temporal design").
    expect(attempts).toEqual([
      expect.objectContaining({ attempt: 1, status: 'succeeded', response_body: 'second worker' }),
    ]);
    expect(retried!.headers['x-formward-attempt']).toBe('1');
    const result = (await completedSubmissionWorkflow(t.stack, id, 60_000)) as {
      deliveries: unknown[];
    };
    expect(result.deliveries).toEqual([expect.objectContaining({ ok: true, statusCode: 200 })]);
  });
});

describe('a worker process told to stop in the middle of a delivery', () => {
  const t = useTestStack({ env: KNOBS });
  let build: ReturnType<typeof compileService>;
  let receiver: HttpsReceiver;
  let child: ChildProcess | null = null;

  beforeAll(() => {
    build = compileService('graceful');
  });

  afterAll(async () => {
    child?.kill('SIGKILL');
    await receiver?.close();
    build?.remove();
  });

  it(
    'finishes the delivery, then exits; its health endpoint answered while it ran',
    { timeout: 120_000 },
    async () => {
      // The answer comes 600 ms after the request (within the 1 s read timeout).
      receiver = await startHttpsReceiver(inject('stack').certificates, () => ({
        status: 200,
        body: 'finished before exit',
        delayMs: 600,
      }));
      const form = await t.api.createForm({ name: 'Graceful worker' });
      await t.api.addWebhook(form.id, receiver.url);

      const port = await freePort();
      child = spawnWorkerProcess(build.dir, t.stack, { ...KNOBS, PORT: String(port) });
      const exited = new Promise<number | null>((resolve) =>
        child!.once('exit', (code) => resolve(code)),
      );
      const readyz = async () => {
        for (let i = 0; i < 300; i++) {
          const res = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null);
          if (res?.ok) return res.json();
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error('the worker never became ready');
      };
      expect(await readyz()).toMatchObject({
        ok: true,
        checks: { postgres: 'ok', temporal: 'ok' },
      });

      const id = await submitJson(form, fields);
      await receiver.waitFor(1, 60_000);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const attempts = await waitForAttempts(t.stack, id, 1, 10_000);
      expect(attempts).toEqual([
        expect.objectContaining({
          attempt: 1,
          status: 'succeeded',
          response_body: 'finished before exit',
        }),
      ]);
      expect(receiver.received).toHaveLength(1);
    },
  );
});

describe('Temporal stopped while submissions arrive', () => {
  const temporal = useOwnTemporal();
  const t = useTestStack(() => ({ temporalAddress: temporal.address, env: KNOBS }));
  let receiver: HttpsReceiver;

  beforeAll(async () => {
    receiver = await startHttpsReceiver(inject('stack').certificates);
  });

  afterAll(async () => {
    await receiver?.close();
  });

  it(
    'every submission is delivered, once per delivery id, after Temporal is back',
    { timeout: 120_000 },
    async () => {
      const form = await t.api.createForm({ name: 'Temporal outage' });
      await t.api.addWebhook(form.id, receiver.url);

      await temporal.stop();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(await submitJson(form, { ...fields, n: String(i) }));

      await temporal.start();
      await t.stack.startWorker();
      const received = await receiver.waitFor(5, 90_000);
      const deliveredIds = received.map((r) => JSON.parse(r.body).id as string).sort();
      expect(deliveredIds).toEqual([...ids].sort());
      expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(5);
      for (const id of ids) {
        const attempts = await waitForAttempts(t.stack, id, 1, 30_000);
        expect(attempts.map((a) => a.status)).toEqual(['succeeded']);
      }
    },
  );
});
