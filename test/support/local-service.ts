import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { waitForPort } from '../../src/embedded/free-port';

// A server binary a test starts on 127.0.0.1 (Caddy, Pebble, pebble-challtestsrv): it is
// killed when the test process exits, even when the test never calls stop().

const STOP_GRACE_MS = 5_000;
const START_TIMEOUT_MS = 30_000;

/** Runs scripts/<name>.sh (cached, else built with `go install`) and returns the path it prints. */
export function toolFromScript(script: string): string {
  return execFileSync('bash', [path.resolve(__dirname, '../../scripts', script)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

export type LocalService = {
  /** The last few kilobytes of its output, for failure messages. */
  log(): string;
  stop(): Promise<void>;
};

/**
 * Spawns `binary` and resolves once every port in `ports` accepts TCP connections on
 * 127.0.0.1; rejects with its output when it exits first.
 */
export async function startLocalService(
  name: string,
  binary: string,
  args: string[],
  options: { ports: number[]; env?: Record<string, string>; cwd?: string },
): Promise<LocalService> {
  let output = '';
  const child: ChildProcess = spawn(binary, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-200_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    process.off('exit', killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const escalate = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(escalate);
  };

  const died = exited.then(() => {
    throw new Error(`${name} exited while starting:\n${output}`);
  });
  died.catch(() => undefined);
  try {
    await Promise.race([
      Promise.all(options.ports.map((port) => waitForPort(port, '127.0.0.1', START_TIMEOUT_MS))),
      died,
    ]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { log: () => output, stop };
}
