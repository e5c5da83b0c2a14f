import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** `whsec_` + base64 of 24 random bytes, the Standard Webhooks secret format. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** The prefix of a sealed secret: the format's version, so the scheme can change later. */
const SEALED_V1 = 'v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Signing secrets are stored sealed (AES-256-GCM under a key derived from APP_SECRET with
 * HKDF-SHA256), so a copy of the database alone cannot sign webhooks. They are opened when a
 * delivery signs and when the secret is shown once at create or rotate. Another `purpose`
 * (forms' CAPTCHA secrets) derives its own key, so one kind of sealed value never opens as another.
 */
export class SigningSecretCipher {
  private readonly key: Buffer;

  constructor(
    appSecret: string,
    private readonly purpose = 'webhook signing secrets v1',
  ) {
    if (!appSecret) throw new Error('APP_SECRET must not be empty');
    this.key = Buffer.from(hkdfSync('sha256', appSecret, 'formward', purpose, 32));
  }

  static isSealed(stored: string): boolean {
    return stored.startsWith(SEALED_V1);
  }

  seal(secret: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return SEALED_V1 + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  }

  /**
   * The secret of a stored value. A row written before sealing existed is still plain text
   * until the start-up pass seals it (sealPlainSigningSecrets), so plain text is returned as is.
   */
  open(stored: string): string {
    if (!SigningSecretCipher.isSealed(stored)) return stored;
    const bytes = Buffer.from(stored.slice(SEALED_V1.length), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new Error(
        `a sealed secret (${this.purpose}) cannot be opened with this APP_SECRET (was APP_SECRET changed?)`,
      );
    }
  }
}
