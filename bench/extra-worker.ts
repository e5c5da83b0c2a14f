import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { groupLeft } from './leftovers';
import { repoRoot, type Formward, type Shutdown } from './stack';
import { freePort, sleep, Tail } from './util';

export type ExtraWorker = {
  pid: number;
  /** Seconds from spawn until /readyz said it polls (it loads the bundle `npm run build` made). */
  startS: number;
  /** SIGTERM, wait (SIGKILL to its group after a minute), then look for leftovers. */
  stop(): Promise<Shutdown & { leftovers: string[] }>;
};

/**
 * `node bin/formward.js worker` against the running stack's PostgreSQL and Temporal (from
 * runtime.json), with the stack's environment (CA file, allow list), in its own process group.
 * Its health endpoints get a port of their own.
 */
export async function startExtraWorker(formward: Formward, logFile: string): Promise<ExtraWorker> {
  const env: NodeJS.ProcessEnv = {
    ...formward.env,
    DATABASE_URL: formward.runtime.databaseUrl,
    TEMPORAL_ADDRESS: formward.runtime.temporalAddress,
    TEMPORAL_TASK_QUEUE: formward.env.TEMPORAL_TASK_QUEUE || 'formward',
    PORT: String(await freePort()),
  };
  const readyz = `http://127.0.0.1:${env.PORT}/readyz`;
  const log = fs.createWriteStream(logFile);
  const tail = new Tail();
  const since = Date.now();
  const child = spawn(process.execPath, [path.join(repoRoot(), 'bin', 'formward.js'), 'worker'], {
    cwd: repoRoot(),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const pid = child.pid!;
  const alive = () => child.exitCode === null && child.signalCode === null;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killGroup = () => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  };
  process.once('exit', () => alive() && killGroup());
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on('data', (chunk: Buffer) => {
      log.write(chunk);
      tail.push(chunk.toString());
    });
  }

  const stop = async () => {
    const stopping = Date.now();
    let graceful = true;
    if (alive()) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => {
        graceful = false;
        killGroup();
      }, 60_000);
      await exited;
      clearTimeout(timer);
    }
    log.end();
    const seconds = Math.round((Date.now() - stopping) / 100) / 10;
    return { graceful, seconds, leftovers: await groupLeft(pid) };
  };

  const deadline = Date.now() + 90_000;
  while (!(await answers200(readyz))) {
    if (!alive() || Date.now() > deadline) {
      const why = alive() ? `not ready after 90 s at ${readyz}` : 'exited';
      await stop();
      throw new Error(`the second worker did not start (${why}):\n${tail}`);
    }
    await sleep(250);
  }
  return { pid, startS: Math.round((Date.now() - since) / 100) / 10, stop };
}

async function answers200(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    return false;
  }
}
