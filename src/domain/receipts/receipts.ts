import { createHash, type KeyObject, type webcrypto } from 'node:crypto';
import { z } from 'zod';
import type { Orm } from '../../db/orm';
import { SigningSecretCipher } from '../secrets/signing-secret';
import {
  ReceiptKeys,
  type PublicReceiptKey,
  type ReceiptKeysOptions,
  type ReceiptSigningKey,
} from './receipt-keys';
import { receiptLibraries } from './receipt-libraries';

/** What a receipt says, in this order (docs/receipts.md). */
export type ReceiptClaims = {
  form_id: string;
  submission_id: string;
  /** RFC 3339, UTC, to the millisecond. */
  received_at: string;
  /** Lowercase hex SHA-256 of the payload's RFC 8785 (JCS) canonical JSON. */
  payload_sha256: string;
};

const receiptClaims = z.object({
  form_id: z.string(),
  submission_id: z.string(),
  received_at: z.string(),
  payload_sha256: z.string(),
});

/** A stored submission, as its receipt describes it. */
export type ReceivedSubmission = {
  formId: string;
  submissionId: string;
  receivedAt: Date;
  payload: Record<string, unknown>;
};

/** The hex SHA-256 of the payload's RFC 8785 canonical JSON: what `payload_sha256` holds. */
export async function payloadSha256(payload: Record<string, unknown>): Promise<string> {
  const { canonicalize } = await receiptLibraries();
  return createHash('sha256')
    .update(canonicalize(payload) ?? '', 'utf8')
    .digest('hex');
}

/**
 * jose signs through WebCrypto: given a KeyObject it converts it on every call, which costs
 * about as much as the signature itself on the ingest path. Converted once per key instead.
 */
const cryptoKeys = new WeakMap<KeyObject, webcrypto.CryptoKey>();
function signingCryptoKey(key: KeyObject): webcrypto.CryptoKey {
  let converted = cryptoKeys.get(key);
  if (!converted) {
    converted = key.toCryptoKey('Ed25519', false, ['sign']);
    cryptoKeys.set(key, converted);
  }
  return converted;
}

/** Where receipts find their keys: ReceiptKeys, or a fixed pair in unit tests. */
export type ReceiptKeySource = {
  signingKey(): Promise<ReceiptSigningKey>;
  publicKeys(): Promise<PublicReceiptKey[]>;
};

/**
 * Signs and checks receipts: compact JWS (EdDSA, Ed25519) with the instance's current key
 * (ReceiptKeys), `kid` in the protected header. Ed25519 signatures are deterministic: the same
 * submission signed with the same key gives the same receipt.
 */
export class Receipts<Keys extends ReceiptKeySource = ReceiptKeys> {
  constructor(readonly keys: Keys) {}

  async sign(submission: ReceivedSubmission): Promise<string> {
    const [{ jose }, key, payloadHash] = await Promise.all([
      receiptLibraries(),
      this.keys.signingKey(),
      payloadSha256(submission.payload),
    ]);
    const claims: ReceiptClaims = {
      form_id: submission.formId,
      submission_id: submission.submissionId,
      received_at: submission.receivedAt.toISOString(),
      payload_sha256: payloadHash,
    };
    return new jose.CompactSign(Buffer.from(JSON.stringify(claims), 'utf8'))
      .setProtectedHeader({ alg: 'EdDSA', kid: key.kid })
      .sign(signingCryptoKey(key.privateKey));
  }

  /** The claims of a receipt signed by one of this instance's keys; null for anything else. */
  async verify(receipt: string): Promise<ReceiptClaims | null> {
    const { jose } = await receiptLibraries();
    const keySet = jose.createLocalJWKSet({ keys: await this.keys.publicKeys() });
    try {
      const { payload } = await jose.compactVerify(receipt, keySet, { algorithms: ['EdDSA'] });
      const claims = receiptClaims.safeParse(JSON.parse(Buffer.from(payload).toString('utf8')));
      return claims.success ? claims.data : null;
    } catch {
      return null;
    }
  }

  /** The JWK Set of `/.well-known/jwks.json`. */
  async jwks(): Promise<{ keys: PublicReceiptKey[] }> {
    return { keys: await this.keys.publicKeys() };
  }
}

/** The purpose the private keys are sealed under: a key of their own, derived from APP_SECRET. */
export const RECEIPT_KEYS_PURPOSE = 'receipt signing keys v1';

/** The process's receipts, on the instance's keys in `orm`'s database. */
export function createReceipts(
  orm: Orm,
  appSecret: string,
  options: Partial<Pick<ReceiptKeysOptions, 'refreshMs' | 'publishedForMs'>> = {},
): Receipts {
  const cipher = new SigningSecretCipher(appSecret, RECEIPT_KEYS_PURPOSE);
  return new Receipts(new ReceiptKeys({ em: () => orm.em.fork(), cipher, ...options }));
}
