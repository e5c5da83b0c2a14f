import { describe, expect, it } from 'vitest';
import { useTestStack } from '../support/fixture';

// src/http/kit/routing/direct-dispatch.ts: `POST /json/{token}` and `POST /f/{token}` skip the
// router. A path spelled otherwise (`/JSON/…`: Express matches paths case-insensitively)
// still goes through the router, so the two ways can be compared answer by answer.

const t = useTestStack({ form: {} });

/** What must not differ between the two ways: status, header names and values, body shape. */
async function answer(path: string, init: RequestInit) {
  const res = await fetch(`${t.stack.url}${path}`, { redirect: 'manual', ...init });
  const text = await res.text();
  // Each submission has its own id and its own receipt (a JWS: three base64url parts).
  const perSubmission = (value: string) =>
    value.replace(/[\w-]+\.[\w-]+\.[\w-]+/g, 'RECEIPT').replace(/\d{6,}/g, 'ID');
  const headers = Object.fromEntries(
    [...res.headers]
      .filter(([name]) => !['date', 'content-length'].includes(name))
      .map(([name, value]) => [name, perSubmission(value)]),
  );
  return { status: res.status, headers, body: perSubmission(text) };
}

const json = (body: string, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Origin: 'https://site.example', ...headers },
  body,
});

const form = (body: string, accept: string): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: accept },
  body,
});

describe('the ingest posts past the router', () => {
  const token = () => t.form.endpoint_token;

  it.each([
    ['stored', () => json('{"email":"a@example.com","message":"hi"}')],
    ['an array refused', () => json('[1,2]')],
    ['broken JSON', () => json('{"email":')],
    ['another media type', () => ({ ...json('x'), headers: { 'Content-Type': 'text/plain' } })],
  ])('/json: %s, the same answer both ways', async (_, init) => {
    const direct = await answer(`/json/${token()}`, init());
    const routed = await answer(`/JSON/${token()}`, init());
    expect(direct).toEqual(routed);
    expect(direct.headers['x-content-type-options']).toBe('nosniff');
  });

  it('/json: an unknown token is 404 both ways', async () => {
    const direct = await answer('/json/nosuchformtoken1', json('{}'));
    expect(direct.status).toBe(404);
    expect(direct).toEqual(await answer('/JSON/nosuchformtoken1', json('{}')));
  });

  it.each([
    ['a browser (302 to the thank-you page)', 'text/html'],
    ['a JSON client', 'application/json'],
  ])('/f: %s, the same answer both ways', async (_, accept) => {
    const direct = await answer(`/f/${token()}`, form('email=a%40example.com', accept));
    const routed = await answer(`/F/${token()}`, form('email=a%40example.com', accept));
    expect(direct).toEqual(routed);
    expect(direct.status).toBe(accept === 'text/html' ? 302 : 200);
  });

  it('a trailing slash and a query string are taken; other methods are left to the router', async () => {
    const withSlash = await answer(`/json/${token()}/?utm=1`, json('{"message":"slash"}'));
    expect(withSlash.status).toBe(200);
    const patch = await fetch(`${t.stack.url}/json/${token()}`, { ...json('{}'), method: 'PATCH' });
    expect(patch.status).toBe(405);
    expect(patch.headers.get('allow')).toBe('POST, OPTIONS');
  });
});
