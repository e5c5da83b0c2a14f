import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../embedded/free-port';
import { lowerPriority } from '../embedded/process-priority';
import type { ProcessExposition } from '../runtime/metrics/exposition';
import { requestWorkerMetrics } from '../runtime/metrics/worker-metrics-channel';
import { WORKER_SHUTDOWN_GRACE_MS } from '../temporal/worker';

/**
 * `formward start` runs its Temporal worker as a child process, `formward worker` with the
 * parent's PostgreSQL, Temporal, URLs and DATA_DIR, at a lower CPU priority: the HTTP
 * process's one JavaScript thread then answers submitters while deliveries drain
 * (docs/running.md, "The worker process of formward start").
 */

/** The child's environment variable naming its parent; set only for a supervised worker. */
const SUPERVISOR_ENV = 'FORMWARD_SUPERVISOR';
const READY_MESSAGE = 'formward-worker-ready';

/**
 * What the child learns from its parent besides the ordinary configuration; `metrics`: the
 * parent serves the child's metrics and asks for them over IPC (docs/metrics.md).
 */
type SupervisorNote = {
  pid: number;
  listener: { address: string; port: number };
  metrics: boolean;
};

/** Restart delays: 1 s, doubling to 30 s; back to 1 s once a worker has run for a minute. */
const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;
const STEADY_AFTER_MS = 60_000;
/** How long a stopping worker may take beyond its own shutdown grace before SIGKILL. */
export const WORKER_STOP_MARGIN_MS = 10_000;
/** How long the first worker may take to poll before start-up gives up. */
const READY_TIMEOUT_MS = 120_000;

export type WorkerProcessInfo = { pid: number; healthUrl: string };

export type SupervisedWorker = {
  /** The worker process running now (null between a death and its restart). */
  current(): WorkerProcessInfo | null;
  /** Its metrics, or null when none runs or it does not answer in time. */
  metrics(): Promise<ProcessExposition | null>;
  /** SIGTERM, then SIGKILL after the worker's shutdown grace and a margin; no more restarts. */
  stop(): Promise<void>;
};

/** The environment of the child: ours, with the endpoints and URLs the parent ended up with. */
export function workerEnvironment(parent: {
  databaseUrl: string;
  temporalAddress: string;
  temporalUiUrl: string | null;
  dataDir: string;
  urls: { base: string; ingest: string };
  /** Where the parent's HTTP server is bound: the child's deliveries never connect there. */
  listener: { address: string; port: number };
  /** Whether the parent serves metrics: the child then collects its own for it. */
  metrics: boolean;
}): NodeJS.ProcessEnv {
  const note: SupervisorNote = {
    pid: process.pid,
    listener: parent.listener,
    metrics: parent.metrics,
  };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: parent.databaseUrl,
    TEMPORAL_ADDRESS: parent.temporalAddress,
    DATA_DIR: parent.dataDir,
    BASE_URL: parent.urls.base,
    INGEST_URL: parent.urls.ingest,
    // The health server is the parent's business, not the network's.
    HOST: '127.0.0.1',
    [SUPERVISOR_ENV]: JSON.stringify(note),
  };
  if (parent.temporalUiUrl) env.TEMPORAL_UI_URL = parent.temporalUiUrl;
  // No listener of its own: the parent's /metrics serves the child's series (docs/metrics.md).
  delete env.METRICS_PORT;
  return env;
}

/** In the child: its parent's note, or null when this process is no supervised worker. */
export function supervisorNote(): SupervisorNote | null {
  const text = process.env[SUPERVISOR_ENV];
  if (!text || !process.send) return null;
  return JSON.parse(text) as SupervisorNote;
}

/** In the child: tells the parent the worker polls. */
export function reportReady(): void {
  process.send?.(READY_MESSAGE);
}

const describeExit = (code: number | null, signal: NodeJS.Signals | null) =>
  signal ? `signal ${signal}` : `exit code ${code}`;

/**
 * Forks the worker (`worker-child.js` beside this file) and resolves once it polls; rejects
 * when the first one exits or hangs before. Later, a worker that exits is restarted with
 * backoff until `stop()`. Every worker gets nice `nice` (0: none).
 */
export async function startSupervisedWorker(options: {
  env: NodeJS.ProcessEnv;
  nice: number;
  say: (line: string) => void;
}): Promise<SupervisedWorker> {
  const entry = path.join(__dirname, 'worker-child.js');
  let running: { child: ChildProcess; info: WorkerProcessInfo; exited: Promise<void> } | null =
    null;
  let stopping = false;
  // From the first worker's readiness on, a worker that exits is restarted.
  let supervising = false;
  let restartTimer: NodeJS.Timeout | undefined;
  let delayMs = FIRST_DELAY_MS;
  // A parent that exits without stop() (a second Ctrl-C, a crash) takes its worker along.
  const killOnExit = () => running?.child.kill('SIGKILL');
  process.on('exit', killOnExit);

  const restartLater = (pid: number, how: string, ranMs: number) => {
    if (ranMs >= STEADY_AFTER_MS) delayMs = FIRST_DELAY_MS;
    options.say(`Worker process ${pid} exited (${how}); restarting it in ${delayMs / 1000} s`);
    restartTimer = setTimeout(() => {
      spawnWorker().then(
        (info) => options.say(`Worker process ${info.pid} running (health ${info.healthUrl})`),
        // Stopping meanwhile kills a worker that is still starting: no news.
        (error: Error) => stopping || options.say(`Worker ${error.message}`),
      );
    }, delayMs);
    delayMs = Math.min(delayMs * 2, MAX_DELAY_MS);
  };

  /** One worker process, resolved once it polls. */
  async function spawnWorker(): Promise<WorkerProcessInfo> {
    const port = await freePort('127.0.0.1');
    if (stopping) throw new Error('not started: the stack is stopping');
    const child = fork(entry, [], {
      env: { ...options.env, PORT: String(port) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // Structured clone: metric values such as NaN and Infinity cross intact.
      serialization: 'advanced',
    });
    const startedAt = Date.now();
    lowerPriority(child.pid, options.nice, options.say);
    const info = { pid: child.pid ?? 0, healthUrl: `http://127.0.0.1:${port}/healthz` };
    const exit = new Promise<string>((resolve) => {
      child.once('error', (error) => resolve(`could not run: ${error.message}`));
      child.once('exit', (code, signal) => resolve(describeExit(code, signal)));
    });
    const exited = exit.then((how) => {
      if (running?.child === child) running = null;
      if (supervising && !stopping) restartLater(info.pid, how, Date.now() - startedAt);
    });
    running = { child, info, exited };
    const ready = new Promise<void>((resolve) =>
      child.on('message', (message) => message === READY_MESSAGE && resolve()),
    );
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      ready.then(() => 'ready'),
      exit,
      new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), READY_TIMEOUT_MS);
      }),
    ]);
    clearTimeout(timer);
    if (outcome !== 'ready') {
      child.kill('SIGKILL');
      const why =
        outcome === 'timeout' ? `not polling after ${READY_TIMEOUT_MS / 1000} s` : outcome;
      throw new Error(`process ${info.pid} failed to start (${why})`);
    }
    // Again: the threads it started while it set up (a new thread inherits its creator's nice).
    lowerPriority(child.pid, options.nice, options.say);
    return info;
  }

  await spawnWorker().catch((error: Error) => {
    process.removeListener('exit', killOnExit);
    throw new Error(`Worker ${error.message}`);
  });
  supervising = true;
  return {
    current: () => running?.info ?? null,
    metrics: () => (running ? requestWorkerMetrics(running.child) : Promise.resolve(null)),
    async stop() {
      stopping = true;
      clearTimeout(restartTimer);
      const last = running;
      if (last) {
        last.child.kill('SIGTERM');
        const escalate = setTimeout(
          () => last.child.kill('SIGKILL'),
          WORKER_SHUTDOWN_GRACE_MS + WORKER_STOP_MARGIN_MS,
        );
        await last.exited;
        clearTimeout(escalate);
      }
      process.removeListener('exit', killOnExit);
    },
  };
}
