import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { round } from './util';

/** CPU seconds by part of the stack, read from /proc (Linux); empty elsewhere. */
export type CpuSample = { at: number; seconds: Record<string, number> };

const ticksPerSecond = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

type Proc = { pid: number; ppid: number; comm: string; cpu: number };

function readProcs(): Proc[] {
  const procs: Proc[] = [];
  for (const name of fs.existsSync('/proc') ? fs.readdirSync('/proc') : []) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime + stime, and cutime + cstime: the children it has reaped (PostgreSQL's backends
      // come and go with the pools' connections; without these a part's sum could go down).
      const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
      const cpu = ticks / ticksPerSecond;
      procs.push({ pid: Number(name), ppid: Number(fields[1]), comm, cpu });
    } catch {
      /* exited meanwhile */
    }
  }
  return procs;
}

/** The pids of `rootPid` and all its descendants. */
function treeOf(procs: Proc[], rootPid: number): Set<number> {
  const tree = new Set([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of procs) {
      if (tree.has(p.pid) || !tree.has(p.ppid)) continue;
      tree.add(p.pid);
      grew = true;
    }
  }
  return tree;
}

/** The command line of `pid` ('' once it has exited). */
function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return '';
  }
}

// src/cli/worker-child.ts sets process.title; before it runs, the command line names the file.
const isWorkerCommand = (cmdline: string) => /formward-worker|worker-child\.js/.test(cmdline);

const findWorker = (procs: Proc[], rootPid: number) =>
  procs.find((p) => p.ppid === rootPid && isWorkerCommand(commandLine(p.pid)))?.pid ?? null;

/** The pid of `formward start`'s worker process (a child of `rootPid`), or null. */
export const workerPidOf = (rootPid: number): number | null => findWorker(readProcs(), rootPid);

/** The part of the stack a process of the Formward tree counts towards. */
function partOf(p: Proc, rootPid: number, workerTree: Set<number>): string {
  if (p.pid === rootPid) return 'http';
  if (workerTree.has(p.pid)) return 'worker';
  if (p.comm.startsWith('postgres')) return 'postgres'; // the postmaster and every backend
  if (p.comm.startsWith('temporal')) return 'temporal';
  return p.comm;
}

/**
 * CPU used so far by the Formward process tree, by part: `http` (the root process),
 * `worker` (its worker process and whatever that runs), `postgres`, `temporal`, other programs
 * by name; by each of `others` (a label and the root pid of another process tree, e.g. a second
 * worker) and by this process (`bench`, with the baseline server's thread).
 */
export function sampleCpu(rootPid: number, others: Record<string, number> = {}): CpuSample {
  const procs = readProcs();
  const inTree = treeOf(procs, rootPid);
  const workerPid = findWorker(procs, rootPid);
  const workerTree = workerPid === null ? new Set<number>() : treeOf(procs, workerPid);
  const seconds: Record<string, number> = {};
  for (const p of procs) {
    if (!inTree.has(p.pid)) continue;
    const part = partOf(p, rootPid, workerTree);
    seconds[part] = (seconds[part] ?? 0) + p.cpu;
  }
  for (const [label, pid] of Object.entries(others)) {
    const tree = treeOf(procs, pid);
    seconds[label] = procs.filter((p) => tree.has(p.pid)).reduce((sum, p) => sum + p.cpu, 0);
  }
  const self = process.cpuUsage();
  seconds.bench = (self.user + self.system) / 1e6;
  return { at: Date.now(), seconds };
}

/**
 * CPU milliseconds per answer of each part between two samples. A process that exited in
 * between (a worker restarted) loses its time: the figures are then a lower bound.
 */
export function msPerAnswer(
  before: CpuSample,
  after: CpuSample,
  answers: number,
): Record<string, number> {
  const ms: Record<string, number> = {};
  for (const [part, s] of Object.entries(after.seconds))
    ms[part] =
      answers > 0 ? round((Math.max(0, s - (before.seconds[part] ?? 0)) * 1000) / answers, 3) : 0;
  return ms;
}

/** Cores used by each part between two samples (1.0 = one core busy all the time). */
export function coresBetween(before: CpuSample, after: CpuSample): Record<string, number> {
  const wall = (after.at - before.at) / 1000;
  const cores: Record<string, number> = {};
  for (const [part, s] of Object.entries(after.seconds)) {
    const used = s - (before.seconds[part] ?? 0);
    if (used > 0.005 * wall) cores[part] = round(used / wall);
  }
  return cores;
}
