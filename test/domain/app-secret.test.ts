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
    expect(resolveAppSecret('configured-secret', tempDir())).toBe('configured-secret');
  });

  it('refuses an empty app-secret file', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'app-secret'), '  \n');
    expect(() => resolveAppSecret(undefined, dir)).toThrow(/app-secret is empty/);
  });
});
