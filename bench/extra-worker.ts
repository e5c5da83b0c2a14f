import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { groupLeft } from './leftovers';
import { repoRoot, type Formward, type Shutdown } from './stack';
import { sleep, Tail } from './util';

export type ExtraWorker = {
  pid: number;
  /** Seconds from spawn until it said it runs (it bundles the workflow code first). */
  startS: number;
  /** SIGTERM, wait (SIGKILL to its group after a minute), then look for leftovers. */
  stop(): Promise<Shutdown & { leftovers: string[] }>;
};

const READY_LINE = 'Formward is running';

/**
 * `node bin/formward.js worker` against the running stack's PostgreSQL and Temporal (from
 * runtime.json), with the stack's environment (CA file, allow list), in its own process group.
 */
export async function startExtraWorker(formward: Formward, logFile: string): Promise<ExtraWorker> {
  const env: NodeJS.ProcessEnv = {
    ...formward.env,
    DATABASE_URL: formward.runtime.databaseUrl,
    TEMPORAL_ADDRESS: formward.runtime.temporalAddress,
    TEMPORAL_TASK_QUEUE: formward.env.TEMPORAL_TASK_QUEUE || 'formward',
  };
  const log = fs.createWriteStream(logFile);
  const tail = new Tail();
  const since = Date.now();
  const child = spawn(
    process.execPath,
    [path.join(repoRoot(), 'bin', 'formward.js'), 'worker'],
    { cwd: repoRoot(), env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
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
  let ready = false;
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on('data', (chunk: Buffer) => {
      log.write(chunk);
      tail.push(chunk.toString());
      if (chunk.toString().includes(READY_LINE)) ready = true;
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
  while (!ready) {
    if (!alive() || Date.now() > deadline) {
      await stop();
      throw new Error(`the second worker did not start (${alive() ? 'timeout' : 'exited'}):\n${tail}`);
    }
    await sleep(100);
  }
  return { pid, startS: Math.round((Date.now() - since) / 100) / 10, stop };
}
