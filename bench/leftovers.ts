import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { sleep } from './util';

const isZombie = (pid: string) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true; // gone meanwhile
  }
};

function lookOnce(patterns: string[][]): string[] {
  const found = new Set<string>();
  for (const args of patterns) {
    try {
      execFileSync('pgrep', args, { encoding: 'utf8' })
        .split('\n')
        .filter((line) => line.trim() && !isZombie(line.split(' ')[0]))
        .forEach((line) => found.add(line));
    } catch {
      /* pgrep exits 1 when nothing matches */
    }
  }
  return [...found];
}

/** Matching processes still alive after up to 5 s (exited children may take a moment). */
async function leftAfterWaiting(patterns: string[][]): Promise<string[]> {
  for (let attempt = 0; ; attempt++) {
    const left = lookOnce(patterns);
    if (left.length === 0 || attempt === 10) return left;
    await sleep(500);
  }
}

/** Processes of our run still alive: the process group of `formward start`, and any on DATA_DIR. */
export function processesLeft(pid: number, dataDir: string): Promise<string[]> {
  return leftAfterWaiting([
    ['-ag', String(pid)], // the process group of `formward start`
    ['-af', dataDir], // postgres -D DATA_DIR/postgres, temporal --db-filename DATA_DIR/...
  ]);
}

/** Processes still alive in the process group led by `pid` (a process spawned detached). */
export function groupLeft(pid: number): Promise<string[]> {
  return leftAfterWaiting([['-ag', String(pid)]]);
}
