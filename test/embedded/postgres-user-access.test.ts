import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../../src/embedded/postgres';
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
