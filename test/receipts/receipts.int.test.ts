import { createHash, createPublicKey, verify } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { receiptsRotateKey } from '../../src/cli/receipt-commands';
import { expectAnswer } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { expectIngestResult, postForm, postJson, postMultipart } from '../support/ingest-requests';

// Receipts on the real stack (docs/receipts.md): the IngestResult's, the thank-you page's,
// the key set at /.well-known/jwks.json, and a rotation. Verified with Node's own Ed25519, not
// with the library that signs them, except where the docs' own three lines are checked.

const t = useTestStack({ form: {} });

type Jwk = { kty: string; crv: string; x: string; kid: string; alg: string; use: string };

const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
const claimsOf = (receipt: string) => decode(receipt.split('.')[1]!);
const kidOf = (receipt: string): string => decode(receipt.split('.')[0]!).kid;

async function keySet(): Promise<Jwk[]> {
  const res = await t.http.get(`${t.stack.url}/.well-known/jwks.json`);
  return expectAnswer(res, 'GET /.well-known/jwks.json', 200).keys;
}

/** RFC 7515 by hand: the receipt's signature with the key of its kid in the published set. */
async function verifiesAgainstJwks(receipt: string): Promise<boolean> {
  const jwk = (await keySet()).find((key) => key.kid === kidOf(receipt));
  if (!jwk) return false;
  const [header, payload, signature] = receipt.split('.');
  const key = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
  return verify(
    null,
    Buffer.from(`${header}.${payload}`),
    key,
    Buffer.from(signature!, 'base64url'),
  );
}

async function receiptOfJson(
  fields: Record<string, unknown>,
): Promise<{ id: string; receipt: string }> {
  const res = await postJson(t.form.json_url, fields);
  const result = expectIngestResult(res, t.stack.url, t.form);
  expect(result.receipt).toEqual(expect.any(String));
  return { id: result.id, receipt: result.receipt! };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the IngestResult', () => {
  it('carries a receipt of the stored submission that verifies against the published keys', async () => {
    const before = Date.now();
    const fields = { name: 'Ada', email: 'ada@example.com', seats: 3, tags: ['x', true] };
    const { id, receipt } = await receiptOfJson(fields);
    expect(await verifiesAgainstJwks(receipt)).toBe(true);
    const claims = claimsOf(receipt);
    expect(claims).toEqual({
      form_id: t.form.id,
      submission_id: id,
      received_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      // RFC 8785 by hand: keys sorted, no spaces.
      payload_sha256: createHash('sha256')
        .update('{"email":"ada@example.com","name":"Ada","seats":3,"tags":["x",true]}')
        .digest('hex'),
    });
    const receivedAt = Date.parse(claims.received_at);
    expect(receivedAt).toBeGreaterThanOrEqual(before);
    expect(receivedAt).toBeLessThanOrEqual(Date.now());
  });

  it('verifies with the three lines of docs/receipts.md, and a changed payload does not match', async () => {
    const fields = { message: 'Hello', email: 'ada@example.com' };
    const { receipt } = await receiptOfJson(fields);
    const { createRemoteJWKSet, jwtVerify } = await import('jose');
    const canonicalize = (await import('canonicalize')).default;

    const keys = createRemoteJWKSet(new URL(`${t.stack.url}/.well-known/jwks.json`));
    const { payload: claims } = await jwtVerify(receipt, keys, { algorithms: ['EdDSA'] });
    const hash = (value: object) => createHash('sha256').update(canonicalize(value)!).digest('hex');
    expect(claims.payload_sha256).toBe(hash(fields));
    expect(claims.payload_sha256).not.toBe(hash({ ...fields, message: 'Hello!' }));
  });

  it('names the row as stored: its created_at, and its files as the payload lists them', async () => {
    // The autoresponse signs the stored row again later: both receipts must be the same one.
    const form = await t.api.createForm({ name: 'With uploads', accept_files: true });
    const res = await postMultipart(
      form.submission_url,
      [
        { name: 'message', value: 'see attached' },
        { name: 'cv', filename: 'cv.txt', contentType: 'text/plain', content: 'my cv' },
      ],
      { accept: 'application/json' },
    );
    const result = expectIngestResult(res, t.stack.url, form);
    const [row] = await t.stack.sql<{ created_at: Date; payload_json: Record<string, unknown> }>(
      'select created_at, payload_json from submissions where id = ?',
      [result.id],
    );
    expect(row!.payload_json.cv).toMatchObject({ filename: 'cv.txt', size: 5 });
    const canonicalize = (await import('canonicalize')).default;
    const stored = createHash('sha256').update(canonicalize(row!.payload_json)!).digest('hex');
    expect(claimsOf(result.receipt!)).toMatchObject({
      received_at: new Date(row!.created_at).toISOString(),
      payload_sha256: stored,
    });
    const again = await t.stack.ctx.receipts.sign({
      formId: form.id,
      submissionId: result.id,
      receivedAt: new Date(row!.created_at),
      payload: row!.payload_json,
    });
    expect(again).toBe(result.receipt);
  });

  it('on /f asking for JSON too', async () => {
    const res = await postForm(
      t.form.submission_url,
      { message: 'hi' },
      { accept: 'application/json' },
    );
    const result = expectIngestResult(res, t.stack.url, t.form);
    expect(claimsOf(result.receipt!)).toMatchObject({ submission_id: result.id });
    expect(await verifiesAgainstJwks(result.receipt!)).toBe(true);
  });

  it('answers success with a null receipt when no key can sign, and the submission is stored', async () => {
    vi.spyOn(t.stack.ctx.receipts, 'sign').mockRejectedValueOnce(new Error('no key readable'));
    const res = await postJson(t.form.json_url, { message: 'kept' });
    const result = expectIngestResult(res, t.stack.url, t.form);
    expect(result.receipt).toBeNull();
    const [row] = await t.stack.sql<{ id: string }>('select id from submissions where id = ?', [
      result.id,
    ]);
    expect(row?.id).toBe(result.id);
  });
});

describe('GET /.well-known/jwks.json', () => {
  it('lists public Ed25519 keys with kid, alg and use, cacheable briefly', async () => {
    await receiptOfJson({ message: 'a key exists by now' });
    const res = await t.http.get(`${t.stack.url}/.well-known/jwks.json`);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const { keys } = expectAnswer(res, 'GET /.well-known/jwks.json', 200);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(Object.keys(key).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x']);
      expect(key).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    }
  });
});

describe('the thank-you page', () => {
  it('is reached with the receipt and offers it as a download', async () => {
    const res = await postForm(t.form.submission_url, { message: 'from a browser' });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.pathname).toBe(`/f/${t.form.endpoint_token}/thanks`);
    const receipt = location.searchParams.get('receipt')!;
    expect(await verifiesAgainstJwks(receipt)).toBe(true);
    const id = claimsOf(receipt).submission_id;

    const page = await t.http.get(location.href);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.text).toContain(
      `<a href="data:application/jose;charset=us-ascii,${receipt}" download="receipt-${id}.jws">`,
    );
  });

  it('offers nothing for a receipt that is not ours for this form', async () => {
    const { receipt } = await receiptOfJson({ message: 'for another page' });
    const [header, , signature] = receipt.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...claimsOf(receipt), submission_id: '1' }),
    ).toString('base64url');
    const other = await t.api.createForm({ name: 'Other' });
    for (const [token, offered] of [
      [t.form.endpoint_token, `${header}.${forged}.${signature}`],
      [other.endpoint_token, receipt],
    ]) {
      const page = await t.http.get(`${t.stack.url}/f/${token}/thanks?receipt=${offered}`);
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('receipt');
    }
  });
});

describe('formward receipts rotate-key', () => {
  it('adds a key that signs later; receipts of the old key still verify', async () => {
    const { receipt: old } = await receiptOfJson({ message: 'before the rotation' });
    const printed: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      printed.push(String(chunk));
      return true;
    });
    await receiptsRotateKey(t.stack.config);
    vi.restoreAllMocks();
    const rotated = JSON.parse(printed.find((line) => line.startsWith('{"kid"')) ?? '{}');
    expect(rotated.published).toEqual([rotated.kid, kidOf(old)]);
    expect(Date.parse(rotated.signs_from) - Date.now()).toBeGreaterThan(9 * 60_000);

    // Until it has been published for 10 minutes, the old key signs.
    await t.stack.ctx.receipts.keys.refresh();
    expect(kidOf((await receiptOfJson({ message: 'just after' })).receipt)).toBe(kidOf(old));

    // Ten minutes on (the key's creation moved back): the new key signs, both are published.
    await t.stack.sql(
      "update receipt_keys set created_at = now() - interval '11 minutes' where kid = ?",
      [rotated.kid],
    );
    await t.stack.sql(
      "update receipt_keys set created_at = now() - interval '12 minutes' where kid <> ?",
      [rotated.kid],
    );
    await t.stack.ctx.receipts.keys.refresh();
    const { receipt: fresh } = await receiptOfJson({ message: 'after the rotation' });
    expect(kidOf(fresh)).toBe(rotated.kid);
    expect((await keySet()).map((key) => key.kid)).toEqual([rotated.kid, kidOf(old)]);
    expect(await verifiesAgainstJwks(fresh)).toBe(true);
    expect(await verifiesAgainstJwks(old)).toBe(true);
  });
});
