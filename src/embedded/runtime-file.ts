import fs from 'node:fs';
import path from 'node:path';

/** What a running `formward start` tells later CLI invocations about its embedded services. */
export type RuntimeInfo = {
  pid: number;
  databaseUrl: string;
  temporalAddress: string;
  temporalUiUrl: string | null;
  baseUrl: string;
  ingestUrl: string;
  startedAt: string;
};

const fileOf = (dataDir: string) => path.join(dataDir, 'runtime.json');

export type ProcessDetails = { command: string; state: string; parentPid: number };

/**
 * A process's command name, state and parent, from /proc (Linux only: null elsewhere and
 * when it is gone). Callers use it to tell our leftovers from unrelated processes.
 */
export function processDetails(pid: number): ProcessDetails | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    // "pid (comm) state ppid ...": comm may hold spaces or parentheses, so cut at the last ')'.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, parentPid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      command: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      state,
      parentPid: Number(parentPid),
    };
  } catch {
    return null;
  }
}

/**
 * True while `pid` runs. EPERM means it runs under another user, which still counts; a
 * zombie (exited, not yet reaped by a parent that may never reap it) does not.
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return processDetails(pid)?.state !== 'Z';
}

export function writeRuntimeFile(dataDir: string, info: RuntimeInfo): void {
  fs.mkdirSync(dataDir, { recursive: true });
  // Write then rename, so a concurrent reader never sees half a file.
  const temporary = `${fileOf(dataDir)}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(info, null, 2), { mode: 0o600 });
  fs.renameSync(temporary, fileOf(dataDir));
}

/** The running instance's details, or null when none runs (a stale file is ignored). */
export function readRuntimeFile(dataDir: string): RuntimeInfo | null {
  let info: RuntimeInfo;
  try {
    info = JSON.parse(fs.readFileSync(fileOf(dataDir), 'utf8')) as RuntimeInfo;
  } catch {
    return null;
  }
  if (typeof info !== 'object' || info === null || typeof info.databaseUrl !== 'string')
    return null;
  return isProcessAlive(info.pid) ? info : null;
}

export function removeRuntimeFile(dataDir: string): void {
  fs.rmSync(fileOf(dataDir), { force: true });
}
