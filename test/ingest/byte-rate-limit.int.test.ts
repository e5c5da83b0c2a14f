import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { expectError, type ApiResponse } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { contactFields, multipart, postJson, postMultipart } from '../support/ingest-requests';
import { countSubmissions } from '../support/stored-submissions';

const KIB = 1024;

/** A file part of `kib` KiB: each such post carries a little more than that many bytes. */
const upload = (kib: number) => [
  { name: 'name', value: 'Ada' },
  { name: 'cv', filename: 'cv.bin', content: Buffer.alloc(kib * KIB, 7) },
];

/** POSTs a body in chunks without Content-Length (Transfer-Encoding: chunked). */
function postChunked(
  url: string,
  { body, contentType }: { body: Buffer; contentType: string },
  address: string,
): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: {
        'content-type': contentType,
        accept: 'application/json',
        'x-forwarded-for': address,
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const text = bytes.toString('utf8');
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers))
          if (typeof value === 'string') headers.set(name, value);
        resolve({
          method: 'POST',
          url,
          status: res.statusCode!,
          headers,
          body: JSON.parse(text),
          text,
          bytes,
        });
      });
    });
    for (let at = 0; at < body.length; at += 16 * KIB) req.write(body.subarray(at, at + 16 * KIB));
    req.end();
  });
}

function expectRetryAfter(res: ApiResponse) {
  expectError(res, 429, 'rate_limited');
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe('ingest rate limit by bytes (INGEST_RATE_LIMIT_BYTES=1MiB)', () => {
  const t = useTestStack({
    env: { INGEST_RATE_LIMIT_BYTES: '1MiB', INGEST_RATE_LIMIT: '4', TRUST_PROXY: 'loopback' },
  });
  const from = (address: string) => ({ 'X-Forwarded-For': address, accept: 'application/json' });

  it('refuses a client past its byte budget across forms with 429 and Retry-After; others are unaffected', async () => {
    const [one, two] = [
      await t.api.createForm({ accept_files: true }),
      await t.api.createForm({ accept_files: true }),
    ];
    const post = (form: typeof one, address: string) =>
      postMultipart(form.submission_url, upload(300), from(address));
    expect((await post(one, '192.0.2.10')).status).toBe(200);
    expect((await post(two, '192.0.2.10')).status).toBe(200);
    expect((await post(one, '192.0.2.10')).status).toBe(200);
    // 4 × 300 KiB passes 1 MiB: refused, whichever form, before anything is stored.
    expectRetryAfter(await post(two, '192.0.2.10'));
    expectRetryAfter(await post(one, '192.0.2.10'));
    expect(await countSubmissions(t.stack, one.id)).toBe(2);
    expect(await countSubmissions(t.stack, two.id)).toBe(1);

    // Another client (and another IPv6 /64) has its own budget.
    expect((await post(two, '192.0.2.11')).status).toBe(200);
    expect((await post(two, '2001:db8:7::1')).status).toBe(200);
  });

  it('counts bodies without Content-Length as they stream', async () => {
    const form = await t.api.createForm({ accept_files: true });
    for (let i = 0; i < 3; i++) {
      const res = await postChunked(form.submission_url, multipart(upload(300)), '198.51.100.7');
      expect(res.status, res.text).toBe(200);
    }
    expectRetryAfter(
      await postChunked(form.submission_url, multipart(upload(300)), '198.51.100.7'),
    );
    expect(await countSubmissions(t.stack, form.id)).toBe(3);
    const other = await postChunked(form.submission_url, multipart(upload(300)), '198.51.100.8');
    expect(other.status).toBe(200);

    // JSON read without Content-Length counts too: 3 × 400 KiB passes 1 MiB.
    const json = {
      body: Buffer.from(
        JSON.stringify({
          a: 'x'.repeat(100 * KIB),
          b: 'y'.repeat(100 * KIB),
          c: 'z'.repeat(100 * KIB),
          d: 'w'.repeat(100 * KIB),
        }),
      ),
      contentType: 'application/json',
    };
    expect((await postChunked(form.json_url, json, '198.51.100.9')).status).toBe(200);
    expect((await postChunked(form.json_url, json, '198.51.100.9')).status).toBe(200);
    expectRetryAfter(await postChunked(form.json_url, json, '198.51.100.9'));
    expect(await countSubmissions(t.stack, form.id)).toBe(6);
  });

  it('still limits the number of posts per client and form', async () => {
    const form = await t.api.createForm({ accept_files: true });
    for (let i = 0; i < 4; i++)
      expect((await postJson(form.json_url, contactFields, from('203.0.113.5'))).status).toBe(200);
    expectRetryAfter(await postJson(form.json_url, contactFields, from('203.0.113.5')));
    expect(await countSubmissions(t.stack, form.id)).toBe(4);
  });
});
