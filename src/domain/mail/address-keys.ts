import { createHmac, hkdfSync } from 'node:crypto';

/**
 * Keyed hashes (HMAC-SHA256 under a key derived from APP_SECRET) of the e-mail addresses and
 * client networks the mail caps count. The ledgers of those caps outlive every owner action,
 * erasure included, so they keep no address itself: a key tells whether two sends went to
 * one address, and without APP_SECRET nobody can test a guessed address against it.
 */
export class AddressKeys {
  private readonly key: Buffer;

  constructor(appSecret: string) {
    if (!appSecret) throw new Error('APP_SECRET must not be empty');
    this.key = Buffer.from(hkdfSync('sha256', appSecret, 'formward', 'mail cap keys v1', 32));
  }

  /** The key of an e-mail address, compared as ingest stores it (trimmed, lower case). */
  address(address: string): string {
    return this.digest(`address:${address.trim().toLowerCase()}`);
  }

  /** The key of a client network (an IPv4 address or IPv6 /64, as clientNetwork gives it). */
  client(network: string): string {
    return this.digest(`client:${network}`);
  }

  private digest(value: string): string {
    return createHmac('sha256', this.key).update(value, 'utf8').digest('base64url');
  }
}
