import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { freePort, isPortFree, waitForPort } from './free-port';

export type TemporalDevServer = {
  address: string;
  uiUrl: string;
  pid: number;
  stop(): Promise<void>;
};

const READY_TIMEOUT_MS = 90_000;

async function pickPort(preferred: number | undefined, fallback: number): Promise<number> {
  if (preferred) return preferred;
  return (await isPortFree(fallback)) ? fallback : freePort();
}

/** Waits until the frontend answers and the namespace exists (the dev server creates it at start). */
async function waitUntilReady(address: string, namespace: string, deadline: number): Promise<void> {
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const connection = await Connection.connect({ address, connectTimeout: '2s' });
      try {
        await connection.workflowService.describeNamespace({ namespace });
        return;
      } finally {
        await connection.close();
      }
    } catch (error) {
      lastError = error;
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  throw new Error(
    `Temporal at ${address} not ready: ${(lastError as Error)?.message ?? 'timeout'}`,
  );
}

/**
 * `temporal server start-dev` with its state in `${dataDir}/temporal.db` and the Web UI on,
 * bound to 127.0.0.1. The child is killed when this process exits, so none is left behind.
 */
export async function startTemporalDevServer(options: {
  cliPath: string;
  dataDir: string;
  port?: number;
  uiPort?: number;
  namespace?: string;
  log?: (line: string) => void;
}): Promise<TemporalDevServer> {
  const namespace = options.namespace ?? 'default';
  const dataDir = path.resolve(options.dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const port = await pickPort(options.port, 7233);
  const uiPort = await pickPort(options.uiPort, port === 7233 ? 8233 : 0);
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--ui-ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--ui-port',
    String(uiPort),
    '--db-filename',
    path.join(dataDir, 'temporal.db'),
    '--namespace',
    namespace,
    '--log-level',
    'warn',
  ];
  const child = spawn(options.cliPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const recent: string[] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
      recent.push(line);
      if (recent.length > 20) recent.shift();
      options.log?.(line);
    }
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const address = `127.0.0.1:${port}`;
  try {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    await Promise.race([
      waitForPort(port, '127.0.0.1', READY_TIMEOUT_MS).then(() =>
        waitUntilReady(address, namespace, deadline),
      ),
      exited.then((code) => {
        throw new Error(`temporal server start-dev exited with code ${code}`);
      }),
    ]);
  } catch (error) {
    child.kill('SIGKILL');
    process.removeListener('exit', killOnExit);
    throw new Error(`${(error as Error).message}\n${recent.join('\n')}`);
  }

  return {
    address,
    uiUrl: `http://127.0.0.1:${uiPort}`,
    pid: child.pid!,
    async stop() {
      process.removeListener('exit', killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
