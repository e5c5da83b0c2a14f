import fs from 'node:fs';
import path from 'node:path';

/** Longest socket path the kernel takes (sun_path is 108 bytes with its NUL), with margin. */
const MAX_SOCKET_PATH = 100;

/**
 * The folder of the embedded PostgreSQL's Unix socket, made ready for the server's user, or
 * null when its path would be too long for a socket (then TCP alone is used). Formward
 * talks to its embedded database over this socket: a query on a Unix socket costs both
 * processes about a quarter less CPU than one through the loopback TCP stack (docs/performance.md). The TCP port stays open for tools and for readers of DATABASE_URL that
 * cannot use a socket.
 */
export function prepareSocketDirectory(
  dataDir: string,
  port: number,
  owner: { uid: number; gid: number } | null,
): string | null {
  const directory = path.join(path.resolve(dataDir), 'postgres-socket');
  if (path.join(directory, `.s.PGSQL.${port}`).length > MAX_SOCKET_PATH) return null;
  fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
  fs.chmodSync(directory, 0o700);
  if (owner) fs.chownSync(directory, owner.uid, owner.gid);
  return directory;
}

/**
 * A libpq-style URL that reaches the server through the socket in `directory`: the `host`
 * parameter names the folder (node-postgres, psql and createOrm read it); the address part
 * is what a reader that ignores it falls back to.
 */
export function socketUrl(tcpUrl: string, directory: string): string {
  const url = new URL(tcpUrl);
  url.searchParams.set('host', directory);
  return url.toString();
}
