import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { Client } from 'pg';
import { isPortFree, waitForPort } from '../../src/embedded/free-port';
import { packageRoot } from '../../src/embedded/package-root';
import { waitForNamespace } from '../../src/embedded/temporal-server';

/**
 * The Temporal server of docker-compose.yml run natively: its binaries and schema come from
 * scripts/temporal-server.sh, its configuration is config/temporal/postgresql.yaml, its
 * persistence two databases on a PostgreSQL we are given.
 */
export type TemporalOnPostgres = {
  address: string;
  pid: number;
  /** SIGKILLs the server (a crash, for fault tests); start() brings it back on the same ports. */
  kill(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
};

type Log = (line: string) => void;

const DATABASES = ['temporal', 'temporal_visibility'] as const;
const SCHEMA_OF: Record<(typeof DATABASES)[number], string> = {
  temporal: 'temporal',
  temporal_visibility: 'visibility',
};
const READY_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 15_000;
const HOST = '127.0.0.1';
// A cold `go install` of the server and the SQL tool takes a few minutes on two cores.
const PROVISION_TIMEOUT_MS = 30 * 60_000;
const run = promisify(execFile);

/** Runs scripts/temporal-server.sh; its progress goes to our stderr, its answer is stdout. */
export async function findTemporalServer(
  explicit = process.env.TEMPORAL_SERVER_DIR,
): Promise<string> {
  const script = path.join(packageRoot(), 'scripts', 'temporal-server.sh');
  const child = spawn('bash', [script], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, TEMPORAL_SERVER_DIR: explicit ?? '' },
    timeout: PROVISION_TIMEOUT_MS,
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`${script} failed (exit code ${code})`);
  return stdout.trim().split('\n').pop() ?? '';
}

function connectionOf(databaseUrl: string) {
  const url = new URL(databaseUrl);
  return {
    host: url.hostname,
    port: url.port || '5432',
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  };
}

/**
 * Creates the `temporal` and `temporal_visibility` databases when missing and brings both
 * schemas to the version the server ships (`setup-schema -v 0.0` then `update-schema`, as
 * the admin-tools job in docker-compose.yml does); safe to run again.
 */
export async function setupTemporalSchema(serverDir: string, databaseUrl: string): Promise<void> {
  const { host, port, user, password } = connectionOf(databaseUrl);
  const admin = new Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    for (const name of DATABASES) {
      const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [
        name,
      ]);
      if (!rowCount) await admin.query(`create database ${name}`);
    }
  } finally {
    await admin.end();
  }
  const tool = path.join(serverDir, 'temporal-sql-tool');
  for (const name of DATABASES) {
    const common = ['--plugin', 'postgres12', '--ep', host, '-p', port, '-u', user, '--db', name];
    const env = { ...process.env, SQL_PASSWORD: password };
    const versioned = path.join(serverDir, 'schema/postgresql/v12', SCHEMA_OF[name], 'versioned');
    // setup-schema -v 0.0 only creates the version tables; a second run finds them and is a no-op.
    await run(tool, [...common, 'setup-schema', '-v', '0.0'], { env });
    await run(tool, [...common, 'update-schema', '-d', versioned], { env });
  }
}

/** Registers the namespace once; the server keeps it in its database across restarts. */
async function ensureNamespace(address: string, namespace: string, retentionDays: number) {
  const connection = await Connection.connect({ address, connectTimeout: '5s' });
  try {
    await connection.workflowService.describeNamespace({ namespace });
  } catch {
    await connection.workflowService.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs(`${retentionDays} days`),
    });
  } finally {
    await connection.close();
  }
}

/**
 * Sets up the schema, then runs `temporal-server --config-file config/temporal/postgresql.yaml
 * start` on 127.0.0.1 with ports of its own, and registers `namespace`; resolves once that
 * namespace answers. The child is SIGKILLed when this process exits.
 */
export async function startTemporalOnPostgres(options: {
  serverDir: string;
  databaseUrl: string;
  namespace?: string;
  retentionDays?: number;
  historyShards?: number;
  log?: Log;
}): Promise<TemporalOnPostgres> {
  const namespace = options.namespace ?? 'default';
  const log = options.log ?? (() => undefined);
  await setupTemporalSchema(options.serverDir, options.databaseUrl);

  const { host, port, user, password } = connectionOf(options.databaseUrl);
  const ports: Record<string, number> = {};
  for (const name of [
    'FRONTEND_GRPC_PORT',
    'FRONTEND_HTTP_PORT',
    'FRONTEND_MEMBERSHIP_PORT',
    'HISTORY_GRPC_PORT',
    'HISTORY_MEMBERSHIP_PORT',
    'MATCHING_GRPC_PORT',
    'MATCHING_MEMBERSHIP_PORT',
    'WORKER_GRPC_PORT',
    'WORKER_MEMBERSHIP_PORT',
  ]) {
    // Below 32768: Temporal stores membership ports as PostgreSQL smallint, and the kernel's
    // free ports lie above. Each service needs its own.
    let candidate = 0;
    while (
      !candidate ||
      Object.values(ports).includes(candidate) ||
      !(await isPortFree(candidate, HOST))
    )
      candidate = 20_000 + Math.floor(Math.random() * 12_000);
    ports[name] = candidate;
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...Object.fromEntries(Object.entries(ports).map(([name, value]) => [name, String(value)])),
    POSTGRES_SEEDS: host,
    DB_PORT: port,
    POSTGRES_USER: user,
    POSTGRES_PWD: password,
    BIND_ON_IP: HOST,
    NUM_HISTORY_SHARDS: String(options.historyShards ?? 4),
    LOG_LEVEL: 'warn',
  };
  const address = `${HOST}:${ports.FRONTEND_GRPC_PORT}`;
  const configFile = path.join(packageRoot(), 'config', 'temporal', 'postgresql.yaml');

  let child: ReturnType<typeof spawn> | undefined;
  let exited: Promise<string> = Promise.resolve('not started');
  const killOnExit = () => child?.kill('SIGKILL');
  process.on('exit', killOnExit);

  const start = async () => {
    const recent: string[] = [];
    const current = spawn(
      path.join(options.serverDir, 'temporal-server'),
      ['--config-file', configFile, 'start'],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = current;
    for (const stream of [current.stdout, current.stderr]) {
      readline.createInterface({ input: stream }).on('line', (line) => {
        recent.push(line.slice(0, 400)); // Temporal's JSON lines carry whole stack traces
        if (recent.length > 20) recent.shift();
        log(line);
      });
    }
    exited = new Promise<string>((resolve) => {
      current.once('error', (error) => resolve(`could not run: ${error.message}`));
      current.once('exit', (code, signal) => resolve(`exited (${signal ?? `code ${code}`})`));
    });
    const gaveUp = new AbortController();
    try {
      const deadline = Date.now() + READY_TIMEOUT_MS;
      await Promise.race([
        (async () => {
          await waitForPort(ports.FRONTEND_GRPC_PORT, HOST, READY_TIMEOUT_MS, gaveUp.signal);
          await ensureNamespace(address, namespace, options.retentionDays ?? 3);
          await waitForNamespace(address, namespace, deadline, gaveUp.signal);
        })(),
        exited.then((how) => {
          throw new Error(`temporal-server ${how}`);
        }),
      ]);
    } catch (error) {
      gaveUp.abort();
      current.kill('SIGKILL');
      await exited;
      throw new Error(
        `Temporal server on ${address} did not start: ${(error as Error).message}\n` +
          `its last output:\n${recent.join('\n')}`,
        { cause: error },
      );
    }
  };
  const running = () => child && child.exitCode === null && child.signalCode === null;
  const end = async (signal: NodeJS.Signals) => {
    if (!running()) return;
    const current = child!;
    current.kill(signal);
    const escalate = setTimeout(() => current.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(escalate);
  };

  await start();
  return {
    address,
    get pid() {
      return child?.pid ?? 0;
    },
    kill: () => end('SIGKILL'),
    start: async () => {
      if (!running()) await start();
    },
    stop: async () => {
      await end('SIGTERM');
      process.removeListener('exit', killOnExit);
    },
  };
}
