import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveAppSecret } from '../../src/runtime/app-secret';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-secret-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('resolveAppSecret', () => {
  it('generates a secret once (0600) and reads it back', () => {
    const dir = tempDir();
    const first = resolveAppSecret(undefined, dir);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(fs.statSync(path.join(dir, 'app-secret')).mode & 0o777).toBe(0o600);
    expect(resolveAppSecret(undefined, dir)).toBe(first);
  });

  it('prefers APP_SECRET', () => {
    const configured = 'a configured secret of more than 32 bytes';
    expect(resolveAppSecret(configured, tempDir())).toBe(configured);
  });

  // Finding 12 of the security review: a short APP_SECRET can be guessed offline from a
  // database dump, and opens every sealed webhook signing secret.
  it('refuses an APP_SECRET shorter than 32 bytes, naming the command that makes one', () => {
    const dir = tempDir();
    expect(() => resolveAppSecret('changeme', dir)).toThrow(
      /^APP_SECRET has 8 bytes; it needs at least 32.*`openssl rand -base64 48`/s,
    );
    // 31 bytes refused, 32 taken; bytes, not characters (é is two).
    expect(() => resolveAppSecret('x'.repeat(31), dir)).toThrow(/has 31 bytes/);
    expect(resolveAppSecret('x'.repeat(32), dir)).toBe('x'.repeat(32));
    expect(resolveAppSecret('é'.repeat(16), dir)).toBe('é'.repeat(16));
    expect(fs.existsSync(path.join(dir, 'app-secret'))).toBe(false);
  });

  it('refuses a short secret kept in DATA_DIR/app-secret', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'app-secret'), 'short-secret\n');
    expect(() => resolveAppSecret(undefined, dir)).toThrow(/app-secret has 12 bytes/);
  });

  it('refuses an empty app-secret file', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'app-secret'), '  \n');
    expect(() => resolveAppSecret(undefined, dir)).toThrow(/app-secret is empty/);
  });
});
