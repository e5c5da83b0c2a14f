import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { freePort, isPortFree } from '../../src/embedded/free-port';
import { ApiClient } from '../support/api-client';
import { buildOnce } from '../support/build-once';
import { eventually } from '../support/eventually';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { postJson } from '../support/ingest-requests';
import { startPrometheus, type RunningPrometheus } from '../support/prometheus';
import { createTestDatabase } from '../support/test-stack';
import { killAll, ROOT, startFormward, type RunningStart } from '../cli/running-start';

// `formward start` serves both of its processes' metrics on METRICS_PORT (docs/metrics.md):
// the HTTP process asks its worker process for its series at scrape time. Real parts: the
// built CLI on the shared PostgreSQL and Temporal, an HTTPS receiver, promtool and Prometheus.

vi.setConfig({ testTimeout: 60_000 });

const run = promisify(execFile);

let dataDir: string;
let receiver: HttpsReceiver;
let stack: RunningStart;
let metricsPort: number;
let prometheus: RunningPrometheus;
let baseUrl: string;
let endpointToken: string;

beforeAll(async () => {
  await buildOnce();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-start-metrics-'));
  receiver = await startHttpsReceiver(inject('stack').certificates);
  metricsPort = await freePort('127.0.0.1');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: await createTestDatabase(),
    TEMPORAL_ADDRESS: inject('stack').temporalAddress,
    TEMPORAL_TASK_QUEUE: `formward-test-${randomBytes(4).toString('hex')}`,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    INGEST_RATE_LIMIT: '0',
    // The receiver is on 127.0.0.1; NODE_EXTRA_CA_CERTS (global setup) makes its CA trusted.
    WEBHOOK_ALLOW_PRIVATE: '127.0.0.1',
    METRICS_PORT: String(metricsPort),
  };
  for (const name of ['BASE_URL', 'INGEST_URL', 'WORKER_PROCESS']) delete env[name];
  await run(process.execPath, [path.join(ROOT, 'bin/formward.js'), 'migrate'], { env });
  await offsetSubmissionIds(env.DATABASE_URL!);
  stack = await startFormward(env);
  baseUrl = stack.output().match(/API: +(http:\/\/\S+)\/api/)![1]!;
  const account = await stack.cli([
    ...['account', 'create', '--email', 'metrics@example.com'],
    ...['--password', 'correct horse battery'],
  ]);
  const { key } = await stack.cli([
    ...['key', 'create', '--account', account.account_id!, '--role', 'admin'],
  ]);
  const api = new ApiClient(baseUrl, { key: key! });
  const form = await api.createForm({ name: 'Scraped at one port' });
  endpointToken = form.endpoint_token;
  await api.addWebhook(form.id, `${receiver.url}/hook`);
  prometheus = await startPrometheus({ jobs: { 'formward-start': `127.0.0.1:${metricsPort}` } });
}, 180_000);

afterAll(async () => {
  await prometheus?.stop();
  if (stack && stack.child.exitCode === null) stack.child.kill('SIGKILL');
  if (dataDir) {
    killAll(dataDir);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  await receiver?.close();
});

/**
 * Workflow ids are `submission-{id}` on the shared Temporal: start numbering far from the
 * other test databases' (test/support/test-stack.ts does the same).
 */
async function offsetSubmissionIds(databaseUrl: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const offset = 1_000_000 + Math.floor(Math.random() * 1_000_000_000_000);
    await client.query(`alter sequence submissions_id_seq restart with ${offset}`);
  } finally {
    await client.end();
  }
}

async function scrape(): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
}

/** The sample lines of `name` (exactly that name) whose labels include every one of `labels`. */
function samples(text: string, name: string, labels: string[] = []): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .filter((line) => labels.every((label) => line.includes(label)));
}

const valueOf = (line: string) => Number(line.slice(line.lastIndexOf(' ') + 1));

/** `promtool check metrics`: lint findings are fine, a text it cannot parse is not. */
async function promtoolParse(text: string): Promise<string> {
  const child = execFile('promtool', ['check', 'metrics']);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.stdin!.end(text);
  const code = await exited;
  expect(output).not.toMatch(/error while linting|parsing error/);
  expect([0, 3]).toContain(code);
  return output;
}

/** The pid of the worker process the output names last. */
function workerPid(): number {
  const pids = [...stack.output().matchAll(/[Ww]orker.* process (\d+)[ ,].*health/g)];
  return Number(pids.at(-1)![1]);
}

describe('formward start on METRICS_PORT', () => {
  it('serves both processes, each series labelled by its process, as one valid text', async () => {
    const res = await postJson(`${baseUrl}/json/${endpointToken}`, { message: 'scraped' });
    expect(res.status).toBe(200);
    await receiver.waitFor(1);
    const delivered = ['plugin_type="webhook"', 'outcome="delivered"', 'process="worker"'];
    const text = await eventually(
      async () => {
        const text = await scrape();
        return samples(text, 'formward_deliveries_total', delivered).some((l) => valueOf(l) >= 1)
          ? text
          : null;
      },
      { what: 'the delivery counted with process="worker"' },
    );
    const accepted = samples(text, 'formward_submissions_total', [
      'outcome="accepted"',
      'process="serve"',
    ]);
    expect(accepted.map(valueOf)).toEqual([1]);
    // Each process's own series, side by side in one family.
    expect(samples(text, 'formward_database_up', ['process="serve"'])).toHaveLength(1);
    expect(samples(text, 'formward_database_up', ['process="worker"'])).toHaveLength(1);
    expect(samples(text, 'process_start_time_seconds')).toHaveLength(2);
    expect(samples(text, 'formward_worker_metrics_up', ['process="serve"']).map(valueOf)).toEqual([
      1,
    ]);
    // The Temporal SDK's, from the worker process only.
    const sdk = text.split('\n').filter((line) => /^temporal_\w+[{ ]/.test(line));
    expect(sdk.length).toBeGreaterThan(0);
    expect(sdk.every((line) => line.includes('process="worker"'))).toBe(true);

    // One HELP and one TYPE per family, and a family's samples together after them.
    const helps = text.split('\n').filter((line) => line.startsWith('# HELP '));
    const names = helps.map((line) => line.split(' ')[2]!);
    expect(new Set(names).size).toBe(names.length);
    const types = text.split('\n').filter((line) => line.startsWith('# TYPE '));
    expect(types.map((line) => line.split(' ')[2])).toEqual(names);
    await promtoolParse(text);
    // No second listener for the worker process.
    expect(await isPortFree(metricsPort + 1)).toBe(true);
  });

  it('is one target to a real Prometheus, which sees both processes', async () => {
    await eventually(
      async () =>
        (await prometheus.query('up{job="formward-start"}')) === 1 &&
        (await prometheus.query(
          'formward_deliveries_total{job="formward-start",process="worker",outcome="delivered"}',
        )) >= 1 &&
        (await prometheus.query(
          'formward_submissions_total{job="formward-start",process="serve",outcome="accepted"}',
        )) >= 1,
      { what: 'both processes scraped through METRICS_PORT' },
    );
    expect(
      await prometheus.query('count({__name__=~"temporal_.+",job="formward-start"})'),
    ).toBeGreaterThan(0);
  });

  it("answers with the serve process's series while the worker process does not answer", async () => {
    const worker = workerPid();
    process.kill(worker, 'SIGSTOP');
    try {
      const started = Date.now();
      const text = await scrape();
      // The bounded wait for the worker (2 s), not a hung scrape.
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(samples(text, 'formward_worker_metrics_up').map(valueOf)).toEqual([0]);
      expect(samples(text, 'formward_submissions_total', ['process="serve"'])).toHaveLength(3);
      expect(text).not.toContain('process="worker"');
      await promtoolParse(text);
    } finally {
      process.kill(worker, 'SIGCONT');
    }
    const again = await scrape();
    expect(samples(again, 'formward_worker_metrics_up').map(valueOf)).toEqual([1]);
    expect(
      samples(again, 'formward_deliveries_total', ['process="worker"']).length,
    ).toBeGreaterThan(0);
  });

  it("answers with the serve process's series while the worker process is down", async () => {
    const killed = workerPid();
    const from = stack.output().length;
    process.kill(killed, 'SIGKILL');
    await stack.waitForOutput(new RegExp(`Worker process ${killed} exited`), from);
    const started = Date.now();
    const text = await scrape();
    // A closed channel answers at once.
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(samples(text, 'formward_worker_metrics_up').map(valueOf)).toEqual([0]);
    expect(samples(text, 'formward_submissions_total', ['process="serve"'])).toHaveLength(3);
    expect(text).not.toContain('process="worker"');
    // Its successor's series come back once it polls.
    await stack.waitForOutput(/Worker process \d+ running/, from, 30_000);
    await eventually(
      async () => samples(await scrape(), 'formward_worker_metrics_up').map(valueOf)[0] === 1,
      { what: "the restarted worker process's series" },
    );
  });
});
