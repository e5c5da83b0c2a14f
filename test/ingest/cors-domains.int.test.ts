import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, request, type FormView } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { contactFields, expectIngestResult, postForm, postJson } from '../support/ingest-requests';
import { countSubmissions } from '../support/stored-submissions';

const ORIGIN = 'https://app.example.org';

const t = useTestStack({ form: {} });

describe('CORS on /json', () => {
  it('answers a preflight with 204, the origin and the allowed methods', async () => {
    const res = await t.http.send('OPTIONS', t.form.json_url, {
      headers: {
        Origin: ORIGIN,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const methods = (res.headers.get('access-control-allow-methods') ?? '').split(/,\s*/);
    expect(methods).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain(
      'content-type',
    );
  });

  it.each([
    { case: 'success', path: () => t.form.json_url, body: contactFields as unknown, status: 200 },
    { case: 'validation error', path: () => t.form.json_url, body: { email: 'x' }, status: 422 },
    { case: 'broken JSON', path: () => t.form.json_url, body: '{', status: 400 },
    {
      case: 'unknown form',
      path: () => `${t.stack.url}/json/unknowntoken0000`,
      body: {},
      status: 404,
    },
    { case: 'bad query', path: () => `${t.form.json_url}?test=1`, body: {}, status: 422 },
  ])(
    'the $case answer ($status) carries Access-Control-Allow-Origin',
    async ({ path, body, status }) => {
      const res = await postJson(path(), body, { Origin: ORIGIN });
      expect(res.status).toBe(status);
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    },
  );
});

describe('allowed_domains ["example.com"]', () => {
  let guarded: FormView;
  beforeAll(async () => {
    guarded = await t.api.createForm({ allowed_domains: ['example.com'] });
    expect(guarded.allowed_domains).toEqual(['example.com']);
  });

  it.each<{ case: string; headers: Record<string, string> }>([
    { case: 'Origin of the domain', headers: { Origin: 'https://example.com' } },
    { case: 'Origin of a subdomain', headers: { Origin: 'https://sub.example.com' } },
    {
      case: 'Referer of a subdomain, no Origin',
      headers: { Referer: 'https://www.example.com/contact' },
    },
  ])('accepts $case', async ({ headers }) => {
    expectIngestResult(
      await postJson(guarded.json_url, contactFields, headers),
      t.stack.url,
      guarded,
    );
  });

  it.each<{ case: string; headers: Record<string, string> }>([
    { case: 'another site', headers: { Origin: 'https://evil.com' } },
    { case: 'a look-alike suffix', headers: { Origin: 'https://notexample.com' } },
    { case: 'a look-alike prefix', headers: { Origin: 'https://example.com.evil.com' } },
    { case: 'Referer of another site', headers: { Referer: 'https://evil.com/example.com' } },
    { case: 'neither Origin nor Referer', headers: {} },
  ])('refuses $case with 403 domain_not_allowed on both endpoints', async ({ headers }) => {
    const before = await countSubmissions(t.stack, guarded.id);
    expectError(
      await postJson(guarded.json_url, contactFields, headers),
      403,
      'domain_not_allowed',
    );
    expectError(
      await postForm(guarded.submission_url, contactFields, {
        ...headers,
        Accept: 'application/json',
      }),
      403,
      'domain_not_allowed',
    );
    expect(await countSubmissions(t.stack, guarded.id)).toBe(before);
  });
});

describe('rate limit (INGEST_RATE_LIMIT=3)', () => {
  const limited = useTestStack({ env: { INGEST_RATE_LIMIT: '3' } });

  it('the 4th submission from one IP to one form is 429 with Retry-After; other forms are unaffected', async () => {
    const [first, second] = [await limited.api.createForm(), await limited.api.createForm()];
    for (let i = 0; i < 3; i++) {
      expectIngestResult(await postJson(first.json_url, contactFields), limited.stack.url, first);
    }
    const res = await postJson(first.json_url, contactFields);
    const retryAfter = Number(res.headers.get('retry-after'));
    expectError(res, 429, 'rate_limited');
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await countSubmissions(limited.stack, first.id)).toBe(3);

    expectIngestResult(await postJson(second.json_url, contactFields), limited.stack.url, second);
  });

  it('ALTCHA challenges are limited like posts, on a count of their own', async () => {
    const form = await limited.api.createForm({ captcha: { provider: 'altcha' } });
    const challenge = () =>
      request('GET', `${limited.stack.url}/f/${form.endpoint_token}/challenge`);
    for (let i = 0; i < 3; i++) expect((await challenge()).status).toBe(200);
    const res = await challenge();
    expectError(res, 429, 'rate_limited');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Fetching challenges used none of the posts: a post gets as far as its CAPTCHA check.
    expectError(await postJson(form.json_url, contactFields), 422, 'captcha_failed');
  });
});

describe('rate limit keys (INGEST_RATE_LIMIT=1, addresses from X-Forwarded-For)', () => {
  const limited = useTestStack({ env: { INGEST_RATE_LIMIT: '1', TRUST_PROXY: 'loopback' } });
  const from = (address: string) => ({ 'X-Forwarded-For': address });

  it('IPv6 clients share one budget per /64; other /64s and IPv4 addresses have their own', async () => {
    const form = await limited.api.createForm();
    const post = (address: string) => postJson(form.json_url, contactFields, from(address));
    expect((await post('2001:db8:1:2::1')).status).toBe(200);
    expectError(await post('2001:db8:1:2:ffff:ffff:ffff:fffe'), 429, 'rate_limited');
    expect((await post('2001:db8:1:3::1')).status).toBe(200);
    expect((await post('192.0.2.1')).status).toBe(200);
    expect((await post('192.0.2.2')).status).toBe(200);
    expectError(await post('192.0.2.2'), 429, 'rate_limited');
  });
});
