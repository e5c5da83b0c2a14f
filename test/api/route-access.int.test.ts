import { beforeAll, describe, expect, it } from 'vitest';
import { SCOPES, isScope } from '../../src/domain/accounts/scopes';
import { LOGIN_CSRF_COOKIE } from '../../src/http/kit/session/cookies';
import { PAGES, ROUTES } from '../../src/http/routes';
import type { AnyRoute } from '../../src/http/kit/routing/define-route';
import { expectError, type ApiClient } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { submitJson } from '../support/ingest-requests';

// Generated from ROUTES, the one route list: every operation that is not public refuses a
// request without a credential (401 `unauthorized`), one that needs a scope refuses a key with
// every scope but that one (403 `forbidden`), and a session-only one refuses any API key
// (401 `unauthorized`). The path parameters name the tenant's own form, plugin and
// submission, so the refusal is not a 404 in disguise.

const t = useTestStack({ form: {} });
const ids = { forms: '', plugins: '', submissions: '' };

beforeAll(async () => {
  ids.forms = t.form.id;
  ids.plugins = (await t.api.addWebhook(t.form.id, 'https://93.184.216.34/hook')).id;
  ids.submissions = await submitJson(t.form, { email: 'access@example.com' });
});

const guarded = ROUTES.filter((route) => route.access !== 'public');
const needingScope = guarded.filter((route) => isScope(route.access));
const sessionOnly = guarded.filter((route) => route.access === 'session');

/** The route's path with each `{param}` filled: the tenant's resource of the segment before it. */
function pathOf(route: AnyRoute): string {
  return route.path.replace(/([^/]+)\/\{(\w+)\}/g, (_match, segment: string, param: string) => {
    const owner = param === 'form_id' ? 'forms' : param === 'plugin_id' ? 'plugins' : segment;
    const id = ids[owner as keyof typeof ids] ?? '1';
    return `${segment}/${id}`;
  });
}

/** A request as a client would send it: changes carry a JSON body. */
function send(client: ApiClient, route: AnyRoute) {
  const method = route.method.toUpperCase();
  const options = ['POST', 'PATCH'].includes(method) ? { json: {} } : {};
  return client.send(method, pathOf(route), options);
}

const label = (route: AnyRoute) => `${route.method.toUpperCase()} ${route.path}`;

describe('the generated list', () => {
  it('has routes of every kind of access, with their parameters filled', () => {
    expect(guarded.length).toBeGreaterThan(20);
    expect(sessionOnly.length).toBeGreaterThan(0);
    expect(guarded.some((route) => route.access === 'any')).toBe(true);
    for (const scope of SCOPES) expect(needingScope.map((r) => r.access)).toContain(scope);
    for (const route of guarded) expect(pathOf(route)).not.toMatch(/[{}]/);
    for (const route of guarded) expect(route.path).toMatch(/^\/api(\/|$)/);
  });
});

describe('without a credential', () => {
  it.each(guarded.map((route) => [label(route), route] as const))(
    '%s → 401 unauthorized',
    async (_label, route) => {
      expectError(await send(t.http, route), 401, 'unauthorized');
    },
  );
});

describe('with a key lacking the scope', () => {
  it.each(needingScope.map((route) => [label(route), route] as const))(
    '%s → 403 forbidden',
    async (_label, route) => {
      const scope = route.access;
      const lacking = await t.clientFor(SCOPES.filter((other) => other !== scope));
      const body = expectError(await send(lacking, route), 403, 'forbidden');
      expect(body.message).toContain(scope);
    },
  );
});

describe('with an API key on a session-only route', () => {
  it.each(sessionOnly.map((route) => [label(route), route] as const))(
    '%s → 401 unauthorized',
    async (_label, route) => {
      expectError(await send(t.api, route), 401, 'unauthorized');
    },
  );
});

// The signed-out pages are not in ROUTES but in PAGES (definePage): generated from that list,
// every signed-out post refuses a form without the signed-out CSRF token, or with another
// one than its cookie's, before it does anything; only the posts that prove what they need
// otherwise take none (sign-out checks the session's token; the recipient links and the
// invitation unsubscribe carry theirs, and mail providers post one-click unsubscribes cross-site).
const guestPosts = PAGES.filter((page) => page.access === 'guest' && page.method === 'post');
const tokenFree = guestPosts.filter((page) => page.guestCsrf === false);
const tokenBound = guestPosts.filter((page) => page.guestCsrf !== false);
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const FIELDS = 'email=access%40example.com&password=a-long-enough-password&name=x';

describe('signed-out posts', () => {
  it('take no CSRF token only for sign-out, the recipient links and the invitation unsubscribe', () => {
    expect(tokenFree.map((page) => page.path).sort()).toEqual([
      '/invitations/unsubscribe',
      '/logout',
      '/recipients/confirm',
      '/recipients/unsubscribe',
    ]);
    expect(tokenBound.length).toBeGreaterThanOrEqual(5);
  });

  it.each(tokenBound.map((page) => [`POST ${page.path}`, page] as const))(
    '%s without the token, or with another one → 403 page with a new token',
    async (_label, page) => {
      const cookie = `${LOGIN_CSRF_COOKIE}=${'a'.repeat(32)}`;
      for (const attempt of [
        { headers: FORM, body: FIELDS },
        { headers: { ...FORM, cookie }, body: `${FIELDS}&_csrf=${'b'.repeat(32)}` },
      ]) {
        const res = await t.http.send('POST', page.path, attempt);
        expect(res.status).toBe(403);
        expect(res.headers.get('content-type')).toMatch(/^text\/html/);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(res.headers.get('set-cookie')).toContain(`${LOGIN_CSRF_COOKIE}=`);
      }
    },
  );

  it('read a form of at most 16kb in UTF-8 (413, 415); the one-click unsubscribe reads none', async () => {
    const large = `email=x&_csrf=${'a'.repeat(17 * 1024)}`;
    for (const path of ['/login', '/signup', '/reset', '/logout'])
      expectError(
        await t.http.send('POST', path, { headers: FORM, body: large }),
        413,
        'payload_too_large',
      );
    const utf16 = { 'content-type': 'application/x-www-form-urlencoded; charset=utf-16' };
    const wrongCharset = await t.http.send('POST', '/login', { headers: utf16, body: 'a=b' });
    expectError(wrongCharset, 415, 'unsupported_media_type');
    const oneClick = await t.http.send('POST', '/recipients/unsubscribe?token=abc', {
      headers: FORM,
      body: `List-Unsubscribe=One-Click&padding=${'a'.repeat(17 * 1024)}`,
    });
    expect(oneClick.status).toBe(400); // a link not made here, not a body refusal
  });

  it('answer another method on their path 405 with its Allow, as the API does', async () => {
    const res = await t.http.send('PUT', '/login');
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET, POST');
  });
});
