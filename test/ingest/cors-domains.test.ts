import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contactFields,
  expectError,
  expectIngestResult,
  postForm,
  postJson,
  startIngestHarness,
  type FormView,
  type IngestHarness,
} from './helpers';

const ORIGIN = 'https://app.example.org';

let h: IngestHarness;
let open: FormView;

beforeAll(async () => {
  h = await startIngestHarness();
  open = await h.createForm();
});
afterAll(async () => {
  await h?.stop();
});

describe('CORS on /json', () => {
  it('answers a preflight with 204, the origin and the allowed methods', async () => {
    const res = await fetch(open.json_url, {
      method: 'OPTIONS',
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
    { case: 'success', path: () => open.json_url, body: contactFields as unknown, status: 200 },
    { case: 'validation error', path: () => open.json_url, body: { email: 'x' }, status: 422 },
    { case: 'broken JSON', path: () => open.json_url, body: '{', status: 400 },
    {
      case: 'unknown form',
      path: () => `${h.stack.url}/json/unknowntoken0000`,
      body: {},
      status: 404,
    },
    { case: 'bad query', path: () => `${open.json_url}?test=1`, body: {}, status: 422 },
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
    guarded = await h.createForm({ allowed_domains: ['example.com'] });
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
    await expectIngestResult(
      await postJson(guarded.json_url, contactFields, headers),
      h.stack.url,
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
    const before = await h.countSubmissions(guarded.id);
    await expectError(
      await postJson(guarded.json_url, contactFields, headers),
      403,
      'domain_not_allowed',
    );
    await expectError(
      await postForm(guarded.submission_url, contactFields, {
        ...headers,
        Accept: 'application/json',
      }),
      403,
      'domain_not_allowed',
    );
    expect(await h.countSubmissions(guarded.id)).toBe(before);
  });
});

describe('rate limit (INGEST_RATE_LIMIT=3)', () => {
  let limited: IngestHarness;
  beforeAll(async () => {
    limited = await startIngestHarness({ env: { INGEST_RATE_LIMIT: '3' } });
  });
  afterAll(async () => {
    await limited?.stop();
  });

  it('the 4th submission from one IP to one form is 429 with Retry-After; other forms are unaffected', async () => {
    const [first, second] = [await limited.createForm(), await limited.createForm()];
    for (let i = 0; i < 3; i++) {
      await expectIngestResult(
        await postJson(first.json_url, contactFields),
        limited.stack.url,
        first,
      );
    }
    const res = await postJson(first.json_url, contactFields);
    const retryAfter = Number(res.headers.get('retry-after'));
    await expectError(res, 429, 'rate_limited');
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await limited.countSubmissions(first.id)).toBe(3);

    await expectIngestResult(
      await postJson(second.json_url, contactFields),
      limited.stack.url,
      second,
    );
  });
});
