import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../../src/embedded/postgres';
import { packagedBinaries } from '../../src/embedded/postgres-binaries';
import { blockedParent } from '../../src/embedded/postgres-user-access';

// As root, PostgreSQL runs as `postgres`; Formward must not open up directories above
// DATA_DIR for it (it once made them world-traversable silently, the user's home included).

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-pg-access-'));
fs.chmodSync(scratch, 0o755); // mkdtemp makes it 0700: only the parents under test are closed
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const someoneElse = { uid: 54321, gid: 54321 };

describe('blockedParent', () => {
  it('names the first parent another user cannot enter, and none when all are open', () => {
    const closed = path.join(scratch, 'closed');
    fs.mkdirSync(path.join(closed, 'inner'), { recursive: true, mode: 0o700 });
    fs.chmodSync(closed, 0o700);
    expect(blockedParent(path.join(closed, 'inner', 'data'), someoneElse)).toBe(closed);
    fs.chmodSync(closed, 0o711);
    fs.chmodSync(path.join(closed, 'inner'), 0o755);
    expect(blockedParent(path.join(closed, 'inner', 'data'), someoneElse)).toBeNull();
  });
});

describe.runIf(process.getuid?.() === 0)('as root, DATA_DIR under a 0700 parent', () => {
  it('stops with what to do and changes no permission outside DATA_DIR', async () => {
    const parent = path.join(scratch, 'private');
    fs.mkdirSync(parent, { mode: 0o700 });
    fs.chmodSync(parent, 0o700);
    const dataDir = path.join(parent, 'data');
    await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(
      `cannot enter ${parent} (mode 0700) on the way to DATA_DIR`,
    );
    await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(
      `setfacl -m u:postgres:x ${parent}`,
    );
    expect(fs.statSync(parent).mode & 0o777).toBe(0o700);
  });
});

describe.runIf(process.getuid?.() === 0)('as root, binaries under a 0700 parent', () => {
  it('copies them into DATA_DIR, starts PostgreSQL from the copy, and reuses it', async () => {
    const parent = path.join(scratch, 'private-clone');
    fs.mkdirSync(parent, { mode: 0o700 });
    fs.chmodSync(parent, 0o700);
    const packaged = packagedBinaries();
    const clone = path.join(parent, 'native');
    fs.cpSync(packaged.dir, clone, { recursive: true, verbatimSymlinks: true });
    const binaries = { dir: clone, version: 'clone-1' };
    const dataDir = path.join(scratch, 'data-for-clone');
    const copy = path.join(dataDir, 'postgres-binaries', 'clone-1');

    const first = await startEmbeddedPostgres({ dataDir, binaries });
    try {
      const pid = Number(
        fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
      );
      expect(fs.realpathSync(`/proc/${pid}/exe`)).toBe(path.join(copy, 'bin', 'postgres'));
      const client = new Client({ connectionString: first.url });
      await client.connect();
      expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
      await client.end();
    } finally {
      await first.stop();
    }
    expect(fs.statSync(parent).mode & 0o777).toBe(0o700);

    const copiedAt = fs.statSync(path.join(copy, '.complete')).mtimeMs;
    const second = await startEmbeddedPostgres({ dataDir, binaries });
    await second.stop();
    expect(fs.statSync(path.join(copy, '.complete')).mtimeMs).toBe(copiedAt);
  });
});
