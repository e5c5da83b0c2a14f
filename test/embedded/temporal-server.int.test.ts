import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, isPortOpen } from '../../src/embedded/free-port';
import { isProcessAlive } from '../../src/embedded/runtime-file';
import { findTemporalCli } from '../../src/embedded/temporal-cli';
import { startTemporalDevServer, type TemporalDevServer } from '../../src/embedded/temporal-server';

// A real `temporal server start-dev` (CLI 1.5.1), in a scratch directory under /tmp.
const LONG = { timeout: 120_000 };

let cliPath: string;
let scratch: string;
const running: TemporalDevServer[] = [];

type StartOptions = Omit<Parameters<typeof startTemporalDevServer>[0], 'cliPath' | 'dataDir'>;

async function start(dataDir: string, options: StartOptions = {}) {
  const server = await startTemporalDevServer({ cliPath, dataDir, ...options });
  running.push(server);
  return server;
}

async function describeNamespace(address: string, namespace: string) {
  const connection = await Connection.connect({ address });
  try {
    return await connection.workflowService.describeNamespace({ namespace });
  } finally {
    await connection.close();
  }
}

beforeAll(async () => {
  cliPath = await findTemporalCli();
  scratch = fs.mkdtempSync('/tmp/formward-embedded-temporal-');
});

afterAll(async () => {
  for (const server of running) await server.stop();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe('startTemporalDevServer', () => {
  it('serves the namespace and the Web UI on 127.0.0.1, and stops completely', LONG, async () => {
    const dataDir = path.join(scratch, 'first');
    const server = await start(dataDir, { namespace: 'formward-test', sqliteSynchronous: 'full' });
    expect(server.address).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(server.uiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const described = await describeNamespace(server.address, 'formward-test');
    expect(described.namespaceInfo?.name).toBe('formward-test');
    expect((await fetch(server.uiUrl)).status).toBe(200);
    // Bytes 18 and 19 of an SQLite file's header are 2 once it is in WAL mode.
    const header = fs.readFileSync(path.join(dataDir, 'temporal.db')).subarray(18, 20);
    expect([...header]).toEqual([2, 2]);
    const commandLine = fs.readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0');
    expect(commandLine).toContain('synchronous=full');

    const port = Number(server.address.split(':')[1]);
    await server.stop();
    expect(isProcessAlive(server.pid)).toBe(false);
    expect(await isPortOpen(port)).toBe(false);
    expect(await isPortOpen(Number(new URL(server.uiUrl).port))).toBe(false);
    await server.stop(); // a second stop is harmless
  });

  it('stops a dev server that a killed run left on the same data', LONG, async () => {
    const dataDir = path.join(scratch, 'leftover');
    fs.mkdirSync(dataDir, { recursive: true });
    const port = await freePort();
    // The leftover: a dev server on this persistence file whose starter is gone.
    const args = ['server', 'start-dev', '--headless', '--ip', '127.0.0.1', '--port', `${port}`];
    args.push('--db-filename', path.join(dataDir, 'temporal.db'));
    const orphan = spawn(cliPath, args, { stdio: 'ignore' });
    const goneStarter = spawn('true');
    await new Promise((resolve) => goneStarter.once('exit', resolve));
    fs.writeFileSync(
      path.join(dataDir, 'temporal-dev-server.json'),
      JSON.stringify({ pid: orphan.pid, ownerPid: goneStarter.pid }),
    );
    const orphanExited = new Promise((resolve) => orphan.once('exit', resolve));

    const server = await start(dataDir, { port });
    await orphanExited;
    expect(isProcessAlive(orphan.pid!)).toBe(false);
    expect(server.address).toBe(`127.0.0.1:${port}`);
    expect((await describeNamespace(server.address, 'default')).namespaceInfo?.name).toBe(
      'default',
    );
  });

  it('refuses a second dev server on data that is in use', LONG, async () => {
    const inUse = path.join(scratch, 'leftover'); // its server from the test above still runs
    await expect(startTemporalDevServer({ cliPath, dataDir: inUse })).rejects.toThrow(
      /already runs/,
    );
  });

  it(
    'refuses a port that another server holds, rather than talking to that one',
    LONG,
    async () => {
      const takenPort = Number(running[running.length - 1].address.split(':')[1]);
      await expect(
        startTemporalDevServer({ cliPath, dataDir: path.join(scratch, 'clash'), port: takenPort }),
      ).rejects.toThrow(`127.0.0.1:${takenPort} is in use`);
    },
  );

  it('fails with the server output when it cannot start', LONG, async () => {
    const dataDir = path.join(scratch, 'broken');
    fs.mkdirSync(path.join(dataDir, 'temporal.db'), { recursive: true }); // not a file: fatal
    await expect(startTemporalDevServer({ cliPath, dataDir })).rejects.toThrow(
      /did not start: temporal server start-dev exited[\s\S]*its last output:\n./,
    );
    expect(fs.existsSync(path.join(dataDir, 'temporal-dev-server.json'))).toBe(false);
  });
});
