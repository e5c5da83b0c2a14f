import { describe, expect, it } from 'vitest';
import { expectAnswer, type ApiResponse } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { postJson } from '../support/ingest-requests';

const t = useTestStack({ form: {} });

function expectSecurityHeaders(res: ApiResponse, csp: RegExp = /frame-ancestors 'none'/) {
  expect(res.headers.get('content-security-policy')).toMatch(csp);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
}

describe('security headers on every answer', () => {
  it.each([
    ['the sign-in page', '/login', 200],
    ['the landing page', '/', 200],
    ['a JSON API answer', '/api/public/spam_metrics', 200],
    ['an API error', '/api/forms', 401],
    ['an unknown path', '/nowhere', 404],
    ['liveness', '/healthz', 200],
  ])('%s (%s)', async (_what, path, status) => {
    const res = await t.http.get(path);
    expect(res.status).toBe(status);
    expectSecurityHeaders(res);
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
  });

  it('the HTML error page of /f/ and a JSON ingest answer', async () => {
    const page = await t.http.send('POST', `/f/unknowntoken0000`, {
      headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=b',
    });
    expect(page.status).toBe(404);
    expectSecurityHeaders(page);
    expect(page.text).not.toContain('javascript:');
    expectSecurityHeaders(await postJson(t.form.json_url, { message: 'hello' }));
  });

  it("/docs keeps its stricter policy (form-action 'none')", async () => {
    const res = await t.http.get('/docs');
    expect(res.status).toBe(200);
    expectSecurityHeaders(res, /form-action 'none'/);
  });
});

describe('/readyz tells no internals', () => {
  const down = useTestStack({ temporalAddress: '127.0.0.1:9' });

  it('a failing check is `unavailable`, without the error text', async () => {
    const res = await down.http.get('/readyz');
    const body = expectAnswer(res, 'GET /readyz', 503);
    expect(body).toMatchObject({
      ok: false,
      checks: { postgres: 'ok', temporal: 'unavailable' },
    });
    expect(body.checks).toEqual({ postgres: 'ok', temporal: 'unavailable' });
    expect(res.text).not.toMatch(/127\.0\.0\.1:9|ECONNREFUSED|error|time/i);
  });

  it('all checks ok → 200', async () => {
    const res = await t.http.get('/readyz');
    expect(expectAnswer(res, 'GET /readyz', 200).checks).toEqual({
      postgres: 'ok',
      temporal: 'ok',
    });
  });
});
