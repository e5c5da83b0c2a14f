import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { createTestCertificates } from '../support/test-ca';
import { paceLoad, postJsonTo, tally, waitForDeliveries } from './support/load';
import { startTopology, type Topology } from './support/topology';

// The production topology of docker-compose.yml run natively (README.md, "Production"):
// PostgreSQL, Temporal on it, 2 × `formward serve`, 2 × `formward worker`, under a paced load
// of distinct submissions to a form with a webhook at an HTTPS receiver. Every submission the
// service accepted must be stored and delivered, signed, under one webhook-id.

const RATE = Number(process.env.PRODUCTION_RATE ?? 10); // submissions a second
const SECONDS = Number(process.env.PRODUCTION_SECONDS ?? 20);
const KNOBS = {
  WEBHOOK_ALLOW_PRIVATE: '127.0.0.1',
  WEBHOOK_RETRY_INITIAL_INTERVAL: '1s',
  WEBHOOK_RETRY_BACKOFF_COEFFICIENT: '2',
  INGEST_RATE_LIMIT: '0',
};

describe('the production topology under a paced load', () => {
  let topology: Topology;
  let receiver: HttpsReceiver;
  const tlsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-production-tls-'));

  beforeAll(async () => {
    const certificates = createTestCertificates(tlsDir);
    // Read by the serve and worker processes when they start: they trust the receiver.
    process.env.NODE_EXTRA_CA_CERTS = certificates.caCertFile;
    receiver = await startHttpsReceiver(certificates);
    topology = await startTopology({ serves: 2, workers: 2, env: KNOBS });
  });

  afterAll(async () => {
    await topology?.stop();
    await receiver?.close();
    fs.rmSync(tlsDir, { recursive: true, force: true });
  });

  it('stores and delivers every accepted submission, signed, once per webhook-id', async () => {
    const { account_id: accountId } = await topology.cli([
      'account',
      'create',
      '--email',
      'load@example.com',
      '--password',
      'correct horse battery',
    ]);
    const { key } = await topology.cli([
      'key',
      'create',
      '--account',
      accountId!,
      '--role',
      'admin',
    ]);
    const api = new ApiClient(topology.serves[0]!.url, { key });
    const form = await api.createForm({ name: 'Production load' });
    const plugin = await api.addWebhook(form.id, receiver.url);

    const started = Date.now();
    const answers = await paceLoad({
      rate: RATE,
      seconds: SECONDS,
      send: (n) =>
        postJsonTo(topology.serves[n % topology.serves.length]!.url, form.endpoint_token, {
          email: `load-${n}@example.com`,
          marker: `load-${n}`,
        }),
    });
    const accepted = answers.filter((answer) => answer.id !== undefined);
    const drainStarted = Date.now();
    await waitForDeliveries(receiver, accepted.length, 180_000);
    const drainMs = Date.now() - drainStarted;

    const db = new Client({ connectionString: topology.postgres.url });
    await db.connect();
    const stored = await db
      .query<{ id: string }>('select id::text from submissions where form_id = $1', [form.id])
      .finally(() => db.end());
    const figures = tally({
      answers,
      stored: new Set(stored.rows.map((row) => row.id)),
      received: receiver.received,
      secret: plugin.signing_secret as string,
    });
    console.log(
      `production topology: offered ${figures.offered}, accepted ${figures.accepted}, ` +
        `refused ${figures.refused}, lost ${figures.lost}, duplicates ${figures.duplicates}, ` +
        `drain ${drainMs} ms (load ${((drainStarted - started) / 1000).toFixed(1)} s at ${RATE}/s)`,
    );
    expect(figures.offered).toBe(RATE * SECONDS);
    expect(figures.accepted).toBe(figures.offered); // no faults: everything is accepted
    expect(figures.notStored).toEqual([]);
    expect(figures.undelivered).toEqual([]);
    expect(figures.badSignatures).toBe(0);
    expect(figures.splitWebhookIds).toEqual([]);
    expect(figures.deliveredNotStored).toEqual([]);
  });
});
