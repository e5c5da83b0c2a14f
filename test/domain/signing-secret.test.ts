import { describe, expect, it } from 'vitest';
import { newSigningSecret, SigningSecretCipher } from '../../src/domain/secrets/signing-secret';

describe('SigningSecretCipher', () => {
  const cipher = new SigningSecretCipher('an app secret');
  const secret = newSigningSecret();

  it('seals with a version prefix, never the secret itself, and opens it again', () => {
    const sealed = cipher.seal(secret);
    expect(sealed).toMatch(/^v1:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(secret.slice(6));
    expect(cipher.seal(secret)).not.toBe(sealed); // a fresh IV each time
    expect(cipher.open(sealed)).toBe(secret);
  });

  it('another APP_SECRET, or a changed byte, cannot open it', () => {
    const sealed = cipher.seal(secret);
    expect(() => new SigningSecretCipher('another secret').open(sealed)).toThrow(/APP_SECRET/);
    const last = sealed.at(-1) === 'A' ? 'B' : 'A';
    expect(() => cipher.open(sealed.slice(0, -1) + last)).toThrow(/APP_SECRET/);
  });

  it('reads a secret stored before sealing as it is, and refuses an empty APP_SECRET', () => {
    expect(cipher.open(secret)).toBe(secret);
    expect(() => new SigningSecretCipher('')).toThrow(/empty/);
  });
});
