import fs from 'node:fs';
import { workerPidOf } from './cpu';

/** The worker process paused right now, for a signal handler that must resume it. */
let paused: number | null = null;

const signal = (pid: number, name: NodeJS.Signals) => {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false; // exited meanwhile
  }
};

/** Its state letter from /proc (`T`: stopped), or null once it has exited. */
function stateOf(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return null;
  }
}

/** Resumes the worker paused by `withWorkerPaused`, if any (SIGINT while a case runs). */
export function resumePausedWorker(): void {
  if (paused !== null) signal(paused, 'SIGCONT');
  paused = null;
}

/**
 * Runs `run` with `formward start`'s worker process (found under `rootPid` by its command
 * line) stopped by SIGSTOP, and continues it afterwards whatever happens. Only the worker
 * stops: the HTTP process, PostgreSQL and Temporal run on. The supervisor watches its child
 * only for an exit, so a stopped child is neither killed nor restarted; the worker's claims
 * lapse meanwhile and its Temporal polls time out, both of which it recovers from.
 * Throws when the worker is not the same process afterwards.
 */
export async function withWorkerPaused<T>(
  rootPid: number,
  run: () => Promise<T>,
): Promise<{ value: T; workerPid: number }> {
  const pid = workerPidOf(rootPid);
  if (pid === null) throw new Error(`no worker process under pid ${rootPid}`);
  if (!signal(pid, 'SIGSTOP')) throw new Error(`worker ${pid}: SIGSTOP failed`);
  paused = pid;
  let value: T;
  try {
    if (stateOf(pid) !== 'T') await waitForStop(pid);
    value = await run();
    if (stateOf(pid) !== 'T') throw new Error(`worker ${pid} ran during the idle case`);
  } finally {
    resumePausedWorker();
  }
  if (workerPidOf(rootPid) !== pid) throw new Error(`worker ${pid} was replaced while paused`);
  return { value, workerPid: pid };
}

/** SIGSTOP is delivered asynchronously: wait (briefly) until the kernel shows it stopped. */
async function waitForStop(pid: number): Promise<void> {
  for (let i = 0; i < 50; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    if (stateOf(pid) === 'T') return;
  }
  throw new Error(`worker ${pid} did not stop after SIGSTOP`);
}
