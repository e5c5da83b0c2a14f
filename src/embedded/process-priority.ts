import fs from 'node:fs';
import os from 'node:os';

/** The threads of `pid` (Linux: /proc/{pid}/task), or the pid alone where there is no /proc. */
function threadsOf(pid: number): number[] {
  try {
    return fs.readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return [pid];
  }
}

/** os.setPriority's error for a thread or process that is no more (a SystemError). */
const gone = (error: unknown) =>
  (error as { info?: { code?: string } }).info?.code === 'ESRCH' ||
  (error as NodeJS.ErrnoException).code === 'ESRCH';

/**
 * Sets the CPU nice of process `pid`. Linux keeps nice per thread and a new thread inherits
 * its creator's, so every thread the process has is set, again until a pass finds none left
 * at another value: then each thread it creates later inherits `nice`. Throws what
 * setpriority says (EACCES below the current nice without the privilege); a thread or
 * process that exits meanwhile is no error.
 */
export function setProcessNice(pid: number, nice: number): void {
  for (let pass = 0; pass < 10; pass++) {
    let changed = 0;
    for (const thread of threadsOf(pid)) {
      try {
        if (os.getPriority(thread) === nice) continue;
        os.setPriority(thread, nice);
        changed++;
      } catch (error) {
        if (!gone(error)) throw error;
      }
    }
    if (changed === 0) return;
  }
}

/** The nice of every thread of `pid` (Linux), for checks; empty when it is gone. */
export function threadNices(pid: number): number[] {
  const nices: number[] = [];
  for (const thread of threadsOf(pid)) {
    try {
      nices.push(os.getPriority(thread));
    } catch (error) {
      if (!gone(error)) throw error;
    }
  }
  return nices;
}

/**
 * setProcessNice for a helper process we start (the worker, the Temporal dev server): a
 * failure is reported through `log` and the process runs on at its current priority.
 * `nice` 0 leaves it alone.
 */
export function lowerPriority(pid: number | undefined, nice: number, log: (line: string) => void) {
  if (!pid || nice === 0) return;
  try {
    setProcessNice(pid, nice);
  } catch (error) {
    log(`could not set nice ${nice} on process ${pid}: ${(error as Error).message}`);
  }
}
