import { createHash, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newReceiptKey, type PublicReceiptKey } from '../../src/domain/receipts/receipt-keys';
import { payloadSha256, Receipts } from '../../src/domain/receipts/receipts';
import { SigningSecretCipher } from '../../src/domain/secrets/signing-secret';

// Receipts (docs/receipts.md) checked without the library that signs them: Node's own
// Ed25519 verification and a canonical JSON written out by hand (RFC 8785).

/** A key source with one fixed Ed25519 pair, as ReceiptKeys would give it. */
function fixedKeys(kid: string) {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const { x } = publicKey.export({ format: 'jwk' });
  const jwk: PublicReceiptKey = {
    kty: 'OKP',
    crv: 'Ed25519',
    x: x!,
    kid,
    alg: 'EdDSA',
    use: 'sig',
  };
  return {
    jwk,
    source: {
      signingKey: () => Promise.resolve({ kid, privateKey }),
      publicKeys: () => Promise.resolve([jwk]),
    },
  };
}

const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

/** RFC 7515 verification by hand: the signature over `header.payload` with the JWK's key. */
function verifiesWith(receipt: string, jwk: PublicReceiptKey): boolean {
  const [header, payload, signature] = receipt.split('.');
  const key = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
  return verify(
    null,
    Buffer.from(`${header}.${payload}`),
    key,
    Buffer.from(signature!, 'base64url'),
  );
}

const payload = {
  name: 'Ada',
  tags: ['b', 1, true],
  address: { zip: '69001', city: 'Lyon' },
  n: 1.5,
};
// Keys sorted at every level, no spaces: RFC 8785's form of `payload`.
const CANONICAL =
  '{"address":{"city":"Lyon","zip":"69001"},"n":1.5,"name":"Ada","tags":["b",1,true]}';
const submission = {
  formId: '7',
  submissionId: '1234',
  receivedAt: new Date('2026-11-29T12:00:00.123Z'),
  payload,
};

describe('a receipt', () => {
  const { jwk, source } = fixedKeys('key-1');
  const receipts = new Receipts(source);

  it('is a compact JWS (EdDSA, kid) that Node verifies with the public JWK alone', async () => {
    const receipt = await receipts.sign(submission);
    const [header, claims] = receipt.split('.');
    expect(decode(header!)).toEqual({ alg: 'EdDSA', kid: 'key-1' });
    expect(decode(claims!)).toEqual({
      form_id: '7',
      submission_id: '1234',
      received_at: '2026-11-29T12:00:00.123Z',
      payload_sha256: createHash('sha256').update(CANONICAL).digest('hex'),
    });
    expect(verifiesWith(receipt, jwk)).toBe(true);
    // Ed25519 is deterministic: the same submission and key give the same receipt.
    expect(await receipts.sign(submission)).toBe(receipt);
  });

  it('names a hash a changed payload does not have', async () => {
    const claims = decode((await receipts.sign(submission)).split('.')[1]!);
    expect(await payloadSha256({ ...payload })).toBe(claims.payload_sha256);
    for (const changed of [
      { ...payload, name: 'Ada ' },
      { ...payload, n: '1.5' },
      { ...payload, extra: null },
      { ...payload, tags: ['b', 1] },
    ])
      expect(await payloadSha256(changed)).not.toBe(claims.payload_sha256);
  });

  it('does not verify once a byte of its claims changed, nor with another key', async () => {
    const receipt = await receipts.sign(submission);
    const [header, claims, signature] = receipt.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...decode(claims!), submission_id: '1235' }),
    ).toString('base64url');
    const tampered = `${header}.${forged}.${signature}`;
    expect(verifiesWith(tampered, jwk)).toBe(false);
    expect(await receipts.verify(tampered)).toBeNull();
    expect(await receipts.verify(receipt)).toMatchObject({ submission_id: '1234' });

    const other = fixedKeys('key-1'); // same kid, another key: not ours
    expect(await receipts.verify(await new Receipts(other.source).sign(submission))).toBeNull();
    expect(await receipts.verify('not.a.receipt')).toBeNull();
  });
});

describe('a new receipt key', () => {
  it('is an Ed25519 JWK named by its RFC 7638 thumbprint, its private key sealed', async () => {
    const cipher = new SigningSecretCipher('an app secret', 'receipt signing keys v1');
    const key = await newReceiptKey(cipher);
    const jwk = key.publicJwk as PublicReceiptKey;
    expect(jwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(jwk).not.toHaveProperty('d');
    // RFC 7638: the SHA-256 of the required members in order, base64url.
    const thumbprint = createHash('sha256')
      .update(`{"crv":"Ed25519","kty":"OKP","x":"${jwk.x}"}`)
      .digest('base64url');
    expect(key.kid).toBe(thumbprint);
    expect(jwk.kid).toBe(thumbprint);
    expect(key.privateKeySealed).toMatch(/^v1:/);
    expect(cipher.open(key.privateKeySealed)).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });
});
