import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A TCP port nobody listens on right now, chosen by the kernel. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Whether we could listen on host:port right now. */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** Whether something accepts TCP connections on host:port. */
export function isPortOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.setTimeout(2_000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Resolves once something accepts TCP connections on host:port; rejects after `timeoutMs`,
 * or as soon as `signal` aborts (so a caller that gave up leaves no polling loop behind).
 */
export async function waitForPort(
  port: number,
  host: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await isPortOpen(port, host))) {
    signal?.throwIfAborted();
    if (Date.now() > deadline)
      throw new Error(`nothing listens on ${host}:${port} after ${timeoutMs} ms`);
    await sleep(200);
  }
}
