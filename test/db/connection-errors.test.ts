import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isConnectionError } from '../../src/db/connection-errors';

/** The error Node gives when connecting to `options` fails. */
function connectError(options: net.NetConnectOpts): Promise<Error> {
  return new Promise((resolve) => {
    const socket = net.connect(options);
    socket.once('error', resolve);
    socket.once('connect', () => socket.destroy());
  });
}

describe('isConnectionError', () => {
  it('a Unix socket whose server is down (its file gone) is a connection error', async () => {
    const missing = path.join(os.tmpdir(), `formward-no-server-${process.pid}.sock`);
    const error = await connectError({ path: missing });
    expect((error as NodeJS.ErrnoException).code).toBe('ENOENT');
    expect(isConnectionError(error)).toBe(true);
    // As knex and MikroORM wrap it.
    expect(isConnectionError({ message: 'wrapped', previous: { cause: error } })).toBe(true);
  });

  it('a TCP port nobody listens on is one; a missing file that is not a socket is not', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(isConnectionError(await connectError({ host: '127.0.0.1', port }))).toBe(true);
    const notFound = Object.assign(new Error('no such file'), { code: 'ENOENT', syscall: 'open' });
    expect(isConnectionError(notFound)).toBe(false);
    expect(isConnectionError({ code: '23505', message: 'duplicate key' })).toBe(false);
  });
});
