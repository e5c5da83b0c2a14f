import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  defaultHashConcurrency,
  hashLoad,
  hashPassword,
  needsRehash,
  verifyPassword,
} from '../../src/domain/accounts/passwords';

/** A hash as releases before parameters were recorded made it: Node's scrypt defaults (N=2^14). */
function legacyHash(password: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('base64')}$${scryptSync(password, salt, 64).toString('base64')}`;
}

describe('password hashes', () => {
  it('are scrypt at N=2^17, r=8, p=1 with the parameters in the string', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{88}$/);
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('wrong horse battery', hash)).toBe(false);
    expect(needsRehash(hash)).toBe(false);
  });

  it('an older hash without parameters still verifies and asks to be upgraded', async () => {
    const old = legacyHash('correct horse battery');
    expect(await verifyPassword('correct horse battery', old)).toBe(true);
    expect(await verifyPassword('wrong', old)).toBe(false);
    expect(needsRehash(old)).toBe(true);
  });

  it('a malformed hash never verifies', async () => {
    for (const stored of ['', 'bcrypt$x$y', 'scrypt$ln=40,r=8,p=1$AAAA$AAAA', 'scrypt$$'])
      expect(await verifyPassword('anything', stored)).toBe(false);
  });
});

describe('bounded hashing (finding 4)', () => {
  it('at most half of the libuv pool hashes at once (2 by default); the rest wait', async () => {
    expect(defaultHashConcurrency(4)).toBe(2);
    expect(defaultHashConcurrency(1)).toBe(1);
    expect(defaultHashConcurrency(16)).toBe(8);
    const stored = await hashPassword('correct horse battery');
    let peak = 0;
    let waited = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, hashLoad().running);
      waited = Math.max(waited, hashLoad().waiting);
    }, 2);
    // Four at once: two hash, two wait (each hash is 128 MiB and a few hundred ms).
    const checks = Array.from({ length: 4 }, (_, i) =>
      i % 2 ? verifyPassword(`guess ${i}`, stored) : hashPassword(`new ${i}`),
    );
    await Promise.all(checks);
    clearInterval(sampler);
    expect(peak).toBe(defaultHashConcurrency());
    expect(waited).toBeGreaterThan(0);
    expect(hashLoad()).toEqual({ running: 0, waiting: 0 });
  }, 60_000);
});
