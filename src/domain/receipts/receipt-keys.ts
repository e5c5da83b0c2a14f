import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  insertFirstReceiptKey,
  insertReceiptKey,
  selectReceiptKeys,
  type NewReceiptKey,
  type ReceiptKeyRow,
} from '../../db/sql/receipt-keys';
import type { SigningSecretCipher } from '../secrets/signing-secret';
import { receiptLibraries } from './receipt-libraries';

/** One public key of `/.well-known/jwks.json` (RFC 8037: an Ed25519 key for EdDSA). */
export type PublicReceiptKey = {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
};

/** The key receipts are signed with now: opened once, kept in memory. */
export type ReceiptSigningKey = { kid: string; privateKey: KeyObject };

/** How often a process reads the keys again (a rotation reaches every process within it). */
export const RECEIPT_KEYS_REFRESH_MS = 60_000;
/** How long the key set may be cached by a verifier (`Cache-Control` of the JWKS). */
export const JWKS_MAX_AGE_SECONDS = 300;
/**
 * A new key signs only after it has been published this long: every process has read it
 * (RECEIPT_KEYS_REFRESH_MS) and every verifier's cached key set lists it (JWKS_MAX_AGE_SECONDS),
 * with room to spare. The instance's first key signs at once: no receipt names another.
 */
export const RECEIPT_KEY_PUBLISHED_FOR_MS = 10 * 60_000;

/** A new Ed25519 key pair: its kid is the RFC 7638 thumbprint of its public key. */
export async function newReceiptKey(cipher: SigningSecretCipher): Promise<NewReceiptKey> {
  const { jose } = await receiptLibraries();
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const { x } = await jose.exportJWK(publicKey);
  const kid = await jose.calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x }, 'sha256');
  const publicJwk: PublicReceiptKey = {
    kty: 'OKP',
    crv: 'Ed25519',
    x: x!,
    kid,
    alg: 'EdDSA',
    use: 'sig',
  };
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { kid, publicJwk, privateKeySealed: cipher.seal(pem) };
}

type KeySet = { readAt: number; signer: ReceiptSigningKey; published: PublicReceiptKey[] };

export type ReceiptKeysOptions = {
  /** A fresh EntityManager for each read. */
  em: () => EntityManager;
  /** Seals and opens the private keys (its own purpose, derived from APP_SECRET). */
  cipher: SigningSecretCipher;
  refreshMs?: number;
  publishedForMs?: number;
};

/**
 * The instance's receipt keys (docs/receipts.md), stored in `receipt_keys` with the private
 * key sealed. The first is made on first need. Read once, then again in the background every
 * RECEIPT_KEYS_REFRESH_MS while the last read serves, so signing never waits on the database
 * after the first time; a private key is opened once per process.
 */
export class ReceiptKeys {
  private keySet: KeySet | null = null;
  private reading: Promise<KeySet> | null = null;
  private readonly opened = new Map<string, KeyObject>();

  constructor(private readonly options: ReceiptKeysOptions) {}

  async signingKey(): Promise<ReceiptSigningKey> {
    return (await this.current()).signer;
  }

  /** Every key, newest first: those of receipts signed before a rotation too. */
  async publicKeys(): Promise<PublicReceiptKey[]> {
    return (await this.current()).published;
  }

  /** Reads the keys now (after a rotation in this process, and in tests). */
  async refresh(): Promise<void> {
    await this.read();
  }

  /** Adds a new key; it signs from `signsFrom` on, the old ones stay published. */
  async rotate(): Promise<{ kid: string; signsFrom: Date }> {
    const key = await newReceiptKey(this.options.cipher);
    const createdAt = await insertReceiptKey(this.options.em(), key);
    return { kid: key.kid, signsFrom: new Date(createdAt.getTime() + this.publishedForMs) };
  }

  private get publishedForMs() {
    return this.options.publishedForMs ?? RECEIPT_KEY_PUBLISHED_FOR_MS;
  }

  private current(): Promise<KeySet> {
    const keySet = this.keySet;
    if (!keySet) return this.read();
    if (Date.now() - keySet.readAt >= (this.options.refreshMs ?? RECEIPT_KEYS_REFRESH_MS)) {
      // Stale: read again in the background; a failed read is tried again on the next call.
      this.read().catch(() => undefined);
    }
    return Promise.resolve(keySet);
  }

  private read(): Promise<KeySet> {
    this.reading ??= this.load().finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  private async load(): Promise<KeySet> {
    const em = this.options.em();
    let rows = await selectReceiptKeys(em, this.publishedForMs);
    if (rows.length === 0) {
      const first = await newReceiptKey(this.options.cipher);
      await em.transactional((tx) => insertFirstReceiptKey(tx, first));
      rows = await selectReceiptKeys(em, this.publishedForMs);
    }
    let signer = this.firstOpened(rows);
    if (!signer) {
      // No stored key opens with this APP_SECRET (it was changed): a new one signs at once.
      await insertReceiptKey(em, await newReceiptKey(this.options.cipher));
      rows = await selectReceiptKeys(em, this.publishedForMs);
      signer = this.firstOpened(rows);
    }
    if (!signer) throw new Error('no receipt signing key opens with this APP_SECRET');
    this.keySet = {
      readAt: Date.now(),
      signer,
      published: rows.map((row) => row.publicJwk as PublicReceiptKey),
    };
    return this.keySet;
  }

  /**
   * The key that signs: the newest published one this process can open; while none is, the
   * oldest it can open (the first key, still young when a rotation adds the next; or the one
   * made after APP_SECRET changed). Each private key is opened once.
   */
  private firstOpened(rows: ReceiptKeyRow[]): ReceiptSigningKey | null {
    const unpublished = rows.filter((row) => !row.published).reverse();
    const byPreference = [...rows.filter((row) => row.published), ...unpublished];
    for (const row of byPreference) {
      let privateKey = this.opened.get(row.kid);
      if (!privateKey) {
        try {
          privateKey = createPrivateKey(this.options.cipher.open(row.privateKeySealed));
        } catch {
          continue; // sealed under another APP_SECRET: it still verifies, it cannot sign
        }
        this.opened.set(row.kid, privateKey);
      }
      return { kid: row.kid, privateKey };
    }
    return null;
  }
}
