import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { lowerPriority, setProcessNice, threadNices } from '../../src/embedded/process-priority';

// Linux keeps the nice per thread: setting it on a pid alone leaves the threads a process
// already runs at their old priority (src/embedded/process-priority.ts).

/** A Node process that starts a worker thread each time it reads a line. */
const SCRIPT = `
const { Worker } = require('node:worker_threads');
process.stdin.on('data', () => {
  new Worker('setInterval(() => {}, 1000)', { eval: true }).on('online', () => process.stdout.write('online\\n'));
});
process.stdout.write('ready\\n');
`;

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
});

async function startThreaded(): Promise<ChildProcess> {
  child = spawn(process.execPath, ['-e', SCRIPT], { stdio: ['pipe', 'pipe', 'inherit'] });
  await once(child.stdout!, 'data');
  return child;
}

async function addThread(target: ChildProcess): Promise<void> {
  target.stdin!.write('\n');
  await once(target.stdout!, 'data');
}

describe('setProcessNice', () => {
  it('sets every thread, and threads started later inherit it', async () => {
    const threaded = await startThreaded();
    await addThread(threaded);
    const before = threadNices(threaded.pid!);
    expect(before.length).toBeGreaterThan(2);
    expect(new Set(before)).toEqual(new Set([0]));

    setProcessNice(threaded.pid!, 7);
    expect(new Set(threadNices(threaded.pid!))).toEqual(new Set([7]));

    await addThread(threaded);
    const after = threadNices(threaded.pid!);
    expect(after.length).toBeGreaterThan(before.length);
    expect(new Set(after)).toEqual(new Set([7]));
  });
});

describe('lowerPriority', () => {
  it('leaves a process alone at nice 0, and says nothing about a process that is gone', async () => {
    const threaded = await startThreaded();
    const said: string[] = [];
    lowerPriority(threaded.pid, 0, (line) => said.push(line));
    expect(new Set(threadNices(threaded.pid!))).toEqual(new Set([0]));
    threaded.kill('SIGKILL');
    await once(threaded, 'exit');
    lowerPriority(threaded.pid, 10, (line) => said.push(line));
    expect(said).toEqual([]);
  });
});
