import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

export type RecipientOfAccount = { accountId: string; address: string };

/**
 * The token of a mail's one-click unsubscribe link: (account, address) sealed with AES-256-GCM
 * under a key derived from APP_SECRET. Every mail to a recipient needs it in the clear, so it
 * is not stored; it cannot be forged or read without the key, and it names no address in logs.
 * `purpose` derives a key of its own, so a token made for one list opens nowhere else.
 */
export class UnsubscribeTokens {
  private readonly key: Buffer;

  constructor(appSecret: string, purpose = 'unsubscribe links v1') {
    if (!appSecret) throw new Error('APP_SECRET must not be empty');
    this.key = Buffer.from(hkdfSync('sha256', appSecret, 'formward', purpose, 32));
  }

  issue(recipient: RecipientOfAccount): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const plain = JSON.stringify([recipient.accountId, recipient.address]);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  }

  /** The recipient a token stands for; null for anything this key did not seal. */
  open(token: string): RecipientOfAccount | null {
    try {
      const bytes = Buffer.from(token, 'base64url');
      if (bytes.length <= IV_BYTES + TAG_BYTES) return null;
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const plain = Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
      const [accountId, address] = JSON.parse(plain) as unknown[];
      if (typeof accountId !== 'string' || typeof address !== 'string') return null;
      return { accountId, address };
    } catch {
      return null;
    }
  }
}
