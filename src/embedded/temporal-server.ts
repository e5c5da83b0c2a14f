import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import type { SqliteSynchronous } from '../config/config';
import { freePort, isPortFree, waitForPort } from './free-port';
import { isProcessAlive, processDetails } from './runtime-file';

export type TemporalDevServer = {
  address: string;
  uiUrl: string;
  pid: number;
  stop(): Promise<void>;
};

type Log = (line: string) => void;

const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 10_000;
const HOST = '127.0.0.1';

/** `${dataDir}/temporal-dev-server.json`: our child's pid and ours, to spot an orphan later. */
type PidRecord = { pid: number; ownerPid: number };
const pidFileOf = (dataDir: string) => path.join(dataDir, 'temporal-dev-server.json');

async function pickPort(preferred: number | undefined, usual: number, taken = 0) {
  if (preferred) return preferred;
  return usual !== taken && (await isPortFree(usual)) ? usual : freePort();
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(100))
    if (!isProcessAlive(pid)) return true;
  return false;
}

/**
 * A dev server left running by a killed run (SIGKILL skips our exit hook) still holds the
 * persistence file; a second server on the same file would corrupt it, so it is stopped.
 * One whose starter is still alive is in use: that is an error, not a leftover.
 */
async function stopLeftover(dataDir: string, cliPath: string, log: Log): Promise<void> {
  let record: PidRecord;
  try {
    record = JSON.parse(fs.readFileSync(pidFileOf(dataDir), 'utf8')) as PidRecord;
  } catch {
    return;
  }
  const details = processDetails(record.pid);
  // comm is the executable's name, cut to 15 characters; anything else reuses the pid.
  if (details && details.command === path.basename(cliPath).slice(0, 15)) {
    if (details.parentPid === record.ownerPid && isProcessAlive(record.ownerPid)) {
      throw new Error(
        `a Temporal dev server for ${dataDir} already runs (pid ${record.pid}, started by ` +
          `process ${record.ownerPid}); stop that process or set TEMPORAL_ADDRESS`,
      );
    }
    log(`stopping Temporal dev server pid ${record.pid} left running by a killed run`);
    process.kill(record.pid, 'SIGTERM');
    if (!(await waitForExit(record.pid, STOP_GRACE_MS))) {
      process.kill(record.pid, 'SIGKILL');
      await waitForExit(record.pid, STOP_GRACE_MS);
    }
  }
  fs.rmSync(pidFileOf(dataDir), { force: true });
}

/** Waits until the frontend answers for the namespace (the dev server creates it at start). */
export async function waitForNamespace(
  address: string,
  namespace: string,
  deadline: number,
  signal: AbortSignal,
): Promise<void> {
  for (;;) {
    signal.throwIfAborted();
    try {
      const connection = await Connection.connect({ address, connectTimeout: '2s' });
      try {
        await connection.workflowService.describeNamespace({ namespace });
        return;
      } finally {
        await connection.close();
      }
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`namespace "${namespace}" not usable: ${(error as Error).message}`, {
          cause: error,
        });
      await sleep(250);
    }
  }
}

/**
 * `temporal server start-dev` with its state in `${dataDir}/temporal.db` and the Web UI on,
 * all bound to 127.0.0.1; resolves once the namespace answers. Ports default to 7233/8233
 * when free. The child is SIGKILLed when this process exits, so none is left behind.
 */
export async function startTemporalDevServer(options: {
  cliPath: string;
  dataDir: string;
  port?: number;
  uiPort?: number;
  namespace?: string;
  /** SQLite `synchronous` of the persistence file (in WAL mode); default `normal`. */
  sqliteSynchronous?: SqliteSynchronous;
  log?: Log;
}): Promise<TemporalDevServer> {
  const namespace = options.namespace ?? 'default';
  const log = options.log ?? (() => undefined);
  const dataDir = path.resolve(options.dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  await stopLeftover(dataDir, options.cliPath, log);

  const port = await pickPort(options.port, 7233);
  const uiPort = await pickPort(options.uiPort, 8233, port);
  // Checked first: on a taken port the readiness probe would reach the other server.
  for (const wanted of [port, uiPort]) {
    if (!(await isPortFree(wanted, HOST)))
      throw new Error(`cannot start the Temporal dev server: ${HOST}:${wanted} is in use`);
  }
  // Flags as of CLI 1.5.1: --ui-ip defaults to --ip, but say it anyway; the HTTP API and
  // metrics ports are random free ones on --ip.
  const args = [
    'server',
    'start-dev',
    '--ip',
    HOST,
    '--port',
    String(port),
    '--ui-ip',
    HOST,
    '--ui-port',
    String(uiPort),
    '--db-filename',
    path.join(dataDir, 'temporal.db'),
    '--namespace',
    namespace,
    '--log-level',
    'warn',
    // WAL: a commit appends to the log instead of rewriting pages through a rollback journal,
    // and readers do not block the writer; with `normal` it syncs at checkpoints only. The
    // dev server's default (rollback journal, `full`) halves the workflows it completes.
    '--sqlite-pragma',
    'journal_mode=wal',
    '--sqlite-pragma',
    `synchronous=${options.sqliteSynchronous ?? 'normal'}`,
    // No load balancer to drain for: stop in ~2 s instead of ~8 s.
    '--dynamic-config-value',
    'frontend.shutdownDrainDuration="0s"',
    '--dynamic-config-value',
    'frontend.shutdownFailHealthCheckDuration="0s"',
  ];
  const child = spawn(options.cliPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });

  const recent: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    readline.createInterface({ input: stream }).on('line', (line) => {
      recent.push(line);
      if (recent.length > 20) recent.shift();
      log(line);
    });
  }
  const killOnExit = () => child.kill('SIGKILL');
  process.on('exit', killOnExit);
  const exited = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(`could not run ${options.cliPath}: ${error.message}`));
    child.once('exit', (code, signal) => resolve(`exited (${signal ?? `code ${code}`})`));
  }).finally(() => process.removeListener('exit', killOnExit));
  if (child.pid) {
    const record: PidRecord = { pid: child.pid, ownerPid: process.pid };
    fs.writeFileSync(pidFileOf(dataDir), JSON.stringify(record));
  }

  const address = `${HOST}:${port}`;
  const gaveUp = new AbortController();
  try {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    await Promise.race([
      (async () => {
        await waitForPort(port, HOST, READY_TIMEOUT_MS, gaveUp.signal);
        await waitForNamespace(address, namespace, deadline, gaveUp.signal);
      })(),
      exited.then((how) => {
        throw new Error(`temporal server start-dev ${how}`);
      }),
    ]);
  } catch (error) {
    gaveUp.abort();
    child.kill('SIGKILL');
    await exited;
    fs.rmSync(pidFileOf(dataDir), { force: true });
    throw new Error(
      `Temporal dev server on ${address} did not start: ${(error as Error).message}\n` +
        `its last output:\n${recent.join('\n')}`,
      { cause: error },
    );
  }

  let stopping: Promise<void> | undefined;
  return {
    address,
    uiUrl: `http://${HOST}:${uiPort}`,
    pid: child.pid!,
    stop() {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          const escalate = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
          await exited;
          clearTimeout(escalate);
        }
        fs.rmSync(pidFileOf(dataDir), { force: true });
      })();
      return stopping;
    },
  };
}
