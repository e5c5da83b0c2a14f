import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { isProcessAlive } from '../../src/embedded/runtime-file';

// `node bin/formward.js start` as someone runs it, for the tests of its process tree.

export const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'bin/formward.js');

export type RunningStart = {
  child: ChildProcess;
  pid: number;
  /** Everything it wrote to stderr so far. */
  output(): string;
  /** Resolves with the first match of `pattern` in the output after `from` characters. */
  waitForOutput(pattern: RegExp, from?: number, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Runs another `formward` command with the same environment; its stdout as JSON. */
  cli(args: string[]): Promise<Record<string, string>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/** Starts `formward start` in its own process group; resolves once it says it is running. */
export async function startFormward(env: NodeJS.ProcessEnv): Promise<RunningStart> {
  const stack = spawnFormward(env);
  await stack.waitForOutput(/Press Ctrl-C to stop/, 0, 150_000);
  return stack;
}

/** Starts `formward start` in its own process group, without waiting for anything. */
export function spawnFormward(env: NodeJS.ProcessEnv): RunningStart {
  const child = spawn(process.execPath, [BIN, 'start'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true, // a SIGKILL to the group cleans up after a failed test
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const waitForOutput = async (pattern: RegExp, from = 0, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = output.slice(from).match(pattern);
      if (match) return match;
      if (Date.now() > deadline || child.exitCode !== null || child.signalCode !== null)
        throw new Error(`no ${pattern} in the output of formward start:\n${output}`);
      await sleep(100);
    }
  };
  return {
    child,
    pid: child.pid!,
    output: () => output,
    waitForOutput,
    exited,
    async cli(args) {
      const { stdout } = await promisify(execFile)(process.execPath, [BIN, ...args], {
        cwd: ROOT,
        env,
      });
      return JSON.parse(stdout) as Record<string, string>;
    },
  };
}

/** /proc/{pid}/{file} as text, or '' when it is gone or unreadable. */
function procText(pid: number, file: string): string {
  try {
    return fs.readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
}

/** The live processes whose command line or environment names `dataDir`: the stack's. */
export function processesOf(dataDir: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => pid !== process.pid && isProcessAlive(pid))
    .filter((pid) =>
      [procText(pid, 'cmdline'), procText(pid, 'environ')].some((text) => text.includes(dataDir)),
    );
}

/** /proc/{pid}/stat field 4: the parent's pid. */
export function parentOf(pid: number): number {
  const stat = procText(pid, 'stat');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** /proc/{pid}/task/{tid}/stat field 19, the nice, of every thread of `pid`. */
export function nicesOf(pid: number): number[] {
  return fs
    .readdirSync(`/proc/${pid}/task`)
    .map((tid) => procText(pid, `task/${tid}/stat`))
    .filter(Boolean) // a thread that ended meanwhile
    .map((stat) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
}

/** Waits until none of `pids` runs (zombies count as gone); returns those still running. */
export async function waitUntilGone(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const alive = pids.filter(isProcessAlive);
    if (alive.length === 0 || Date.now() > deadline) return alive;
    await sleep(100);
  }
}

/** Last resort after a failed test: SIGKILL to whatever of the stack still runs. */
export function killAll(dataDir: string): void {
  for (const pid of processesOf(dataDir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone meanwhile */
    }
  }
}
