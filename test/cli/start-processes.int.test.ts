import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { freePort, isPortFree } from '../../src/embedded/free-port';
import { ApiClient, type CreatedWebhook } from '../support/api-client';
import { eventually } from '../support/eventually';
import {
  startHttpsReceiver,
  standardSignatureValid,
  type HttpsReceiver,
} from '../support/https-receiver';
import { ingestResultOf, postJson } from '../support/ingest-requests';
import {
  killAll,
  nicesOf,
  parentOf,
  processesOf,
  startFormward,
  waitUntilGone,
  type RunningStart,
} from './running-start';
import { buildOnce } from '../support/build-once';

// `formward start` answers first (docs/performance.md; docs/running.md): its worker is a
// supervised child process at nice 10, like the embedded Temporal dev server; the HTTP
// process and PostgreSQL keep their priority. Real parts: the built CLI, embedded
// PostgreSQL, the Temporal dev server, an HTTPS receiver.

vi.setConfig({ testTimeout: 90_000 });

let dataDir: string;
let receiver: HttpsReceiver;
let env: NodeJS.ProcessEnv;
let stack: RunningStart;
let api: ApiClient;
let baseUrl: string;
let webhook: CreatedWebhook;
let endpointToken: string;

beforeAll(async () => {
  await buildOnce();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-start-'));
  // As root, PostgreSQL runs as `postgres`, which must enter it.
  fs.chmodSync(dataDir, 0o755);
  receiver = await startHttpsReceiver(inject('stack').certificates);
  env = { ...process.env };
  for (const name of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'BASE_URL', 'INGEST_URL'])
    delete env[name];
  Object.assign(env, {
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    TEMPORAL_CLI: inject('stack').temporalCli,
    INGEST_RATE_LIMIT: '0',
    // The receiver is on 127.0.0.1; NODE_EXTRA_CA_CERTS (global setup) makes its CA trusted.
    WEBHOOK_ALLOW_PRIVATE: '127.0.0.1',
    WEBHOOK_RETRY_INITIAL_INTERVAL: '1s',
    METRICS_PORT: String(await freePort('127.0.0.1')),
  });
  stack = await startFormward(env);
  baseUrl = stack.output().match(/API: +(http:\/\/\S+)\/api/)![1]!;
  const account = await stack.cli([
    ...['account', 'create', '--email', 'start@example.com'],
    ...['--password', 'correct horse battery'],
  ]);
  const { key } = await stack.cli([
    'key',
    'create',
    '--account',
    account.account_id!,
    '--role',
    'admin',
  ]);
  api = new ApiClient(baseUrl, { key: key! });
  const form = await api.createForm({ name: 'Processes' });
  endpointToken = form.endpoint_token;
  webhook = await api.addWebhook(form.id, `${receiver.url}/hook`);
}, 240_000);

afterAll(async () => {
  if (stack && stack.child.exitCode === null) stack.child.kill('SIGKILL');
  if (dataDir) {
    killAll(dataDir);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  await receiver?.close();
});

/** The metrics text at 127.0.0.1:port once it has `wanted` (the worker's come after it polls). */
const metricsAt = (port: number, wanted: RegExp) =>
  eventually(
    async () => {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      return wanted.test(text) ? text : null;
    },
    { what: `metrics on port ${port} matching ${wanted}` },
  );

/** The pid of the worker process the output names last. */
function workerPid(): number {
  const pids = [...stack.output().matchAll(/[Ww]orker.* process (\d+)[ ,].*health/g)];
  return Number(pids.at(-1)![1]);
}

const temporalPid = () =>
  (
    JSON.parse(fs.readFileSync(path.join(dataDir, 'temporal-dev-server.json'), 'utf8')) as {
      pid: number;
    }
  ).pid;
const postgresPid = () =>
  Number(fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);

/** Posts one submission; resolves with the webhook request that delivered it. */
async function submit(marker: string) {
  const res = await postJson(`${baseUrl}/json/${endpointToken}`, { message: marker });
  return {
    id: ingestResultOf(res).id,
    delivered: () =>
      eventually(async () => receiver.received.find((request) => request.body.includes(marker)), {
        what: `delivery of ${marker}`,
      }),
  };
}

/** Rows of a query on the stack's database, through the URL its runtime file gives. */
async function rowsOf<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const runtime = JSON.parse(fs.readFileSync(path.join(dataDir, 'runtime.json'), 'utf8')) as {
    databaseUrl: string;
  };
  const client = new Client({ connectionString: runtime.databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

const attemptsOf = (submissionId: string) =>
  rowsOf<{ status: string; error: string }>(
    'select status, error from delivery_attempts where submission_id = $1 order by id',
    [submissionId],
  );

describe('formward start', () => {
  it('runs the worker as a child process at nice 10, and the Temporal dev server at nice 10', () => {
    const worker = workerPid();
    expect(worker).not.toBe(stack.pid);
    expect(parentOf(worker)).toBe(stack.pid);
    // Every thread: Linux keeps the nice per thread.
    expect(new Set(nicesOf(worker))).toEqual(new Set([10]));
    expect(new Set(nicesOf(temporalPid()))).toEqual(new Set([10]));
    // Answering and storing keep their priority.
    expect(new Set(nicesOf(stack.pid))).toEqual(new Set([0]));
    expect(new Set(nicesOf(postgresPid()))).toEqual(new Set([0]));
    expect(stack.output()).toMatch(/Temporal: .*embedded dev server, nice 10/);
  });

  it('serves the metrics of the HTTP process and of its worker process on METRICS_PORT', async () => {
    const port = Number(env.METRICS_PORT);
    const text = await metricsAt(port, /^temporal_\w+\{[^}]*process="worker"/m);
    expect(text).toMatch(/^formward_submissions_total\{[^}]*process="serve"/m);
    expect(text).toMatch(/^formward_deliveries_total\{[^}]*process="worker"/m);
    expect(await isPortFree(port + 1)).toBe(true);
    const res = await fetch(`${baseUrl}/metrics`);
    expect(res.status).toBe(404);
    await res.text();
  });

  it('connects to its embedded PostgreSQL through the Unix socket', async () => {
    // A Unix-socket connection has no client address; the query's own included.
    const sessions = await rowsOf<{ pid: number; address: string | null }>(
      `select pid, host(client_addr) as address from pg_stat_activity
        where datname = current_database() and backend_type = 'client backend'`,
    );
    expect(sessions.length).toBeGreaterThan(1);
    expect(sessions.filter((session) => session.address !== null)).toEqual([]);
  });

  it('answers while the worker process is stopped, and the worker process delivers', async () => {
    const worker = workerPid();
    process.kill(worker, 'SIGSTOP');
    let submission: Awaited<ReturnType<typeof submit>>;
    try {
      submission = await submit('while stopped');
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(receiver.received.some((request) => request.body.includes('while stopped'))).toBe(
        false,
      );
    } finally {
      process.kill(worker, 'SIGCONT');
    }
    const request = await submission.delivered();
    expect(standardSignatureValid(request, webhook.signing_secret)).toBe(true);
  });

  it("refuses to deliver to the parent's HTTP server", async () => {
    const form = await api.createForm({ name: 'Loop' });
    await api.addWebhook(form.id, `https://127.0.0.1:${new URL(baseUrl).port}/hooks`);
    const res = await postJson(`${baseUrl}/json/${form.endpoint_token}`, { message: 'loop' });
    const { id } = ingestResultOf(res);
    const attempts = await eventually(async () => {
      const rows = await attemptsOf(id);
      return rows.length > 0 && rows;
    });
    expect(attempts[0]!.status).toBe('failed');
    expect(attempts[0]!.error).toMatch(/^refused: the address is this Formward's own listener/);
    // The bound socket the parent told its worker about, not only BASE_URL.
    expect(attempts[0]!.error).toContain('the HTTP server');
  });

  /** SIGKILLs the worker process; resolves with its successor's pid once that one polls. */
  async function killWorker(delaySeconds: number): Promise<number> {
    const killed = workerPid();
    const from = stack.output().length;
    process.kill(killed, 'SIGKILL');
    const exited = `Worker process ${killed} exited \\(signal SIGKILL\\)`;
    await stack.waitForOutput(new RegExp(`${exited}; restarting it in ${delaySeconds} s`), from);
    const [, restarted] = await stack.waitForOutput(/Worker process (\d+) running/, from, 30_000);
    expect(Number(restarted)).not.toBe(killed);
    return Number(restarted);
  }

  it('restarts a killed worker process, with backoff, at nice 10, and it delivers', async () => {
    await killWorker(1);
    // Killed again within a minute: the next restart waits twice as long.
    const worker = await killWorker(2);
    expect(parentOf(worker)).toBe(stack.pid);
    expect(new Set(nicesOf(worker))).toEqual(new Set([10]));
    await (await submit('after the restart')).delivered();
  });

  it('stops on SIGTERM with exit code 0, and no process of the stack remains', async () => {
    const pids = processesOf(dataDir);
    // The parent, its worker, Temporal, and PostgreSQL with its own processes.
    expect(pids).toEqual(
      expect.arrayContaining([stack.pid, workerPid(), temporalPid(), postgresPid()]),
    );
    stack.child.kill('SIGTERM');
    expect(await stack.exited).toEqual({ code: 0, signal: null });
    expect(await waitUntilGone(pids, 5_000)).toEqual([]);
    expect(processesOf(dataDir)).toEqual([]);
  });

  it('a worker process whose parent is SIGKILLed exits on its own', async () => {
    stack = await startFormward(env);
    const worker = workerPid();
    const others = processesOf(dataDir).filter((pid) => pid !== worker);
    process.kill(stack.pid, 'SIGKILL');
    expect(await waitUntilGone([worker], 45_000)).toEqual([]);
    // What a SIGKILL leaves behind (PostgreSQL, Temporal) is the next start's to clean up.
    killAll(dataDir);
    await waitUntilGone(others, 10_000);
  });
});
