import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { createTestCertificates } from '../support/test-ca';
import { paceLoad, postJsonTo, tally, waitForDeliveries } from './support/load';
import { startTopology, type Topology } from './support/topology';

// The production topology of docker-compose.yml run natively (docs/production.md):
// PostgreSQL, Temporal on it, 2 × `formward serve`, 2 × `formward worker`, under a paced load
// of distinct submissions to a form with a webhook at an HTTPS receiver. Every submission the
// service accepted must be stored and delivered, signed, under one webhook-id.

const RATE = Number(process.env.PRODUCTION_RATE ?? 15); // submissions a second
const SECONDS = Number(process.env.PRODUCTION_SECONDS ?? 20);
const FAULT_SECONDS = Number(process.env.PRODUCTION_FAULT_SECONDS ?? 90);
const KNOBS = {
  WEBHOOK_ALLOW_PRIVATE: '127.0.0.1',
  WEBHOOK_RETRY_INITIAL_INTERVAL: '1s',
  WEBHOOK_RETRY_BACKOFF_COEFFICIENT: '2',
  INGEST_RATE_LIMIT: '0',
};

describe('the production topology under a paced load', () => {
  let topology: Topology;
  let receiver: HttpsReceiver;
  let api: ApiClient;
  const tlsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-production-tls-'));

  beforeAll(async () => {
    const certificates = createTestCertificates(tlsDir);
    // Read by the serve and worker processes when they start: they trust the receiver.
    process.env.NODE_EXTRA_CA_CERTS = certificates.caCertFile;
    receiver = await startHttpsReceiver(certificates);
    topology = await startTopology({ serves: 2, workers: 2, env: KNOBS });
    const account = await topology.cli([
      ...['account', 'create', '--email', 'load@example.com'],
      ...['--password', 'correct horse battery'],
    ]);
    const { key } = await topology.cli([
      'key',
      'create',
      '--account',
      account.account_id!,
      '--role',
      'admin',
    ]);
    api = new ApiClient(topology.serves[0]!.url, { key });
  });

  afterAll(async () => {
    await topology?.stop();
    await receiver?.close();
    fs.rmSync(tlsDir, { recursive: true, force: true });
  });

  /** Loads a new form for `seconds` (running `during` alongside), drains, and tallies. */
  async function loadAndTally(name: string, seconds: number, during = async () => {}) {
    const form = await api.createForm({ name });
    const plugin = await api.addWebhook(form.id, receiver.url);
    const started = Date.now();
    const [answers] = await Promise.all([
      paceLoad({
        rate: RATE,
        seconds,
        send: (n) =>
          postJsonTo(topology.serves[n % topology.serves.length]!.url, form.endpoint_token, {
            email: `load-${n}@example.com`,
            marker: `${name} ${n}`,
          }),
      }),
      during(),
    ]);
    const accepted = answers.filter((answer) => answer.id !== undefined);
    const ours = () =>
      receiver.received.filter(
        (request) =>
          (JSON.parse(request.body) as { form_id: string }).form_id === form.endpoint_token,
      );
    const drainStarted = Date.now();
    await waitForDeliveries(
      ours,
      accepted.map((answer) => answer.id!),
      300_000,
    ).catch((error: Error) => console.log(`${name}: ${error.message}`)); // tallied below
    const drainMs = Date.now() - drainStarted;

    const db = new Client({ connectionString: topology.postgres.url });
    await db.connect();
    const stored = await db
      .query<{ id: string }>('select id::text from submissions where form_id = $1', [form.id])
      .finally(() => db.end());
    const figures = tally({
      answers,
      stored: new Set(stored.rows.map((row) => row.id)),
      received: ours(),
      secret: plugin.signing_secret as string,
    });
    const byStatus = new Map<number, number>();
    for (const { status } of figures.refusals)
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    const refusals = [...byStatus].map(
      ([status, count]) => `${count} × ${status === 0 ? 'no answer' : status}`,
    );
    console.log(
      `${name}: offered ${figures.offered}, accepted ${figures.accepted}, refused ` +
        `${figures.refused}${refusals.length ? ` (${refusals.join(', ')})` : ''}, lost ` +
        `${figures.lost}, duplicates ${figures.duplicates}, drain ${drainMs} ms ` +
        `(load ${((drainStarted - started) / 1000).toFixed(1)} s at ${RATE}/s)`,
    );
    return figures;
  }

  it('stores and delivers every submission, signed, once per webhook-id', async () => {
    const figures = await loadAndTally('steady load', SECONDS);
    expect(figures.offered).toBe(RATE * SECONDS);
    expect(figures.accepted).toBe(figures.offered); // no faults: everything is accepted
    expect(figures.lost).toBe(0);
    expect(figures.badSignatures).toBe(0);
    expect(figures.splitWebhookIds).toEqual([]);
    expect(figures.deliveredNotStored).toEqual([]);
  });

  it('loses nothing it accepted while its processes are killed', async () => {
    const { workers, serves, temporal, postgres } = topology;
    const at = (fraction: number) => sleep(FAULT_SECONDS * fraction * 1000);
    const figures = await loadAndTally('under faults', FAULT_SECONDS, async () => {
      await at(0.15);
      await workers[0]!.kill(); // SIGKILL, deliveries in flight
      await sleep(2_000);
      await workers[0]!.start();
      await at(0.15);
      await serves[1]!.kill();
      await sleep(2_000);
      await serves[1]!.start();
      await at(0.15);
      await temporal.kill();
      await sleep(2_000);
      await temporal.start();
      await at(0.15);
      const killedAt = Date.now();
      await postgres.crashRestart(1_000);
      // Ingest waits up to 5 s for the database, then answers 503: this says which to expect.
      console.log(`PostgreSQL down for ${Date.now() - killedAt} ms (kill to listening again)`);
    });
    expect(figures.lost).toBe(0);
    expect(figures.notStored).toEqual([]);
    expect(figures.undelivered).toEqual([]);
    expect(figures.badSignatures).toBe(0);
    expect(figures.splitWebhookIds).toEqual([]);
    expect(figures.deliveredNotStored).toEqual([]);
    // Refusals are allowed here (a killed serve process answers nothing); most get through.
    expect(figures.accepted).toBeGreaterThan(figures.offered * 0.8);
  });
});
