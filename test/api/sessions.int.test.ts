import { beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  expectAnswer,
  expectError,
  rels,
  type ApiResponse,
} from '../support/api-client';
import { expireSession } from '../support/database-edits';
import { useTestStack } from '../support/fixture';
import { cookieValue, hiddenCsrf, setCookie, signIn } from '../support/sign-in';

const t = useTestStack();

/** GET /login: the hidden token and the matching cookie pair. */
async function openLoginPage() {
  const res = await t.http.get('/login');
  const cookie = setCookie(res, 'formward_login_csrf');
  return {
    res,
    csrf: hiddenCsrf(res.text),
    cookie: cookie && `formward_login_csrf=${cookieValue(cookie)}`,
  };
}

function postLogin(fields: Record<string, string>, cookie?: string): Promise<ApiResponse> {
  return t.http.send('POST', '/login', {
    cookie,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

/** The session's CSRF token, as the dashboard's overview embeds it in its sign-out form. */
async function sessionCsrf(cookie: string): Promise<string> {
  const home = await t.http.get('/app', { cookie });
  expect(home.text).toContain(t.accountId);
  return hiddenCsrf(home.text)!;
}

describe('GET /login', () => {
  it('serves a sign-in form with email, password and a hidden _csrf', async () => {
    const { res, csrf, cookie } = await openLoginPage();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toMatch(/<form[^>]*method="POST"[^>]*action="\/login"/);
    expect(res.text).toMatch(/<input[^>]*name="email"/);
    expect(res.text).toMatch(/<input[^>]*type="password"[^>]*name="password"/);
    expect(res.text).toMatch(/<input type="hidden" name="_csrf" value="[^"]{16,}"/);
    expect(cookie).toBe(`formward_login_csrf=${csrf}`);
  });

  it('the CSRF cookie is HttpOnly and SameSite=Lax', async () => {
    const { res } = await openLoginPage();
    const line = setCookie(res, 'formward_login_csrf')!;
    expect(line).toMatch(/;\s*HttpOnly/i);
    expect(line).toMatch(/;\s*SameSite=Lax/i);
  });

  it('each visit gets a fresh token', async () => {
    expect((await openLoginPage()).csrf).not.toBe((await openLoginPage()).csrf);
  });
});

describe('POST /login', () => {
  const credentials = () => ({ email: t.email, password: t.password });

  it('without the CSRF cookie → 403 page and no session', async () => {
    const { csrf } = await openLoginPage();
    const res = await postLogin({ ...credentials(), _csrf: csrf! });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain('expired');
    expect(setCookie(res, 'formward_session')).toBeUndefined();
  });

  it('with a token that does not match the cookie → 403', async () => {
    const { cookie } = await openLoginPage();
    const other = await openLoginPage();
    const res = await postLogin({ ...credentials(), _csrf: other.csrf! }, cookie);
    expect(res.status).toBe(403);
    expect(setCookie(res, 'formward_session')).toBeUndefined();
  });

  it('without the _csrf field → 403', async () => {
    const { cookie } = await openLoginPage();
    expect((await postLogin(credentials(), cookie)).status).toBe(403);
  });

  it.each([
    ['a wrong password', () => ({ email: t.email, password: 'wrong horse battery' })],
    ['an unknown e-mail', () => ({ email: 'nobody@example.com', password: t.password })],
    ['an e-mail with a NUL character', () => ({ email: 'a\u0000@example.com', password: 'x' })],
  ])('%s → 401 page and no session', async (_label, fields) => {
    const { csrf, cookie } = await openLoginPage();
    const res = await postLogin({ ...fields(), _csrf: csrf! }, cookie);
    expect(res.status).toBe(401);
    expect(res.text).toContain('Wrong e-mail or password');
    expect(setCookie(res, 'formward_session')).toBeUndefined();
  });

  it('success → 303 to / with an HttpOnly, SameSite=Lax session cookie', async () => {
    const { csrf, cookie } = await openLoginPage();
    const res = await postLogin({ ...credentials(), _csrf: csrf! }, cookie);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    const line = setCookie(res, 'formward_session')!;
    expect(cookieValue(line).length).toBeGreaterThanOrEqual(32);
    expect(line).toMatch(/;\s*HttpOnly/i);
    expect(line).toMatch(/;\s*SameSite=Lax/i);
    expect(line).toMatch(/;\s*Path=\//i);
    expect(line).not.toMatch(/;\s*Secure/i); // served over plain http here
  });

  it('the e-mail is matched case-insensitively', async () => {
    const cookie = await signIn(t.stack.url, t.email.toUpperCase(), t.password);
    expect((await t.http.get('/api', { cookie })).status).toBe(200);
  });
});

describe('a session cookie on the API', () => {
  let cookie: string;
  let api: ApiClient;

  beforeAll(async () => {
    cookie = await signIn(t.stack.url, t.email, t.password);
    api = new ApiClient(t.stack.url, { cookie });
  });

  it('authenticates GET /api with every operation and the stats link', async () => {
    const root = expectAnswer(await api.get('/api'), 'GET /api', 200);
    expect(root.account_id).toBe(t.accountId);
    expect(rels(root.links)).toEqual(
      expect.arrayContaining(['forms', 'create_form', 'submissions', 'spam_submissions', 'stats']),
    );
  });

  it('authenticates GET /api/forms of the same account', async () => {
    const form = await t.api.createForm({ name: 'Seen by the session' });
    const list = expectAnswer(await api.get('/api/forms'), 'GET /api/forms', 200);
    expect(list.forms.map((f) => f.id)).toContain(form.id);
  });

  it('a POST without CSRF token or Origin → 403 forbidden', async () => {
    expectError(await api.post('/api/forms', { name: 'Forged' }), 403, 'forbidden');
  });

  it('a POST from a foreign Origin → 403', async () => {
    const res = await api.post(
      '/api/forms',
      { name: 'Forged' },
      { headers: { origin: 'https://evil.example' } },
    );
    expectError(res, 403, 'forbidden');
  });

  it('a POST with a wrong X-CSRF-Token → 403', async () => {
    const res = await api.post(
      '/api/forms',
      { name: 'Forged' },
      { headers: { 'x-csrf-token': 'nope' } },
    );
    expectError(res, 403, 'forbidden');
  });

  it('a PATCH without CSRF → 403 and nothing changes', async () => {
    const form = await t.api.createForm({ name: 'Stable' });
    expectError(await api.patch(`/api/forms/${form.id}`, { name: 'Forged' }), 403, 'forbidden');
    const read = await t.api.get(`/api/forms/${form.id}`);
    expect(expectAnswer(read, 'GET /api/forms/{id}', 200).form.name).toBe('Stable');
  });

  it('a POST with the same Origin → 201', async () => {
    const res = await api.post(
      '/api/forms',
      { name: 'Same origin' },
      { headers: { origin: t.stack.url } },
    );
    expect(expectAnswer(res, 'POST /api/forms', 201).form.name).toBe('Same origin');
  });

  it('a POST with the session’s X-CSRF-Token → 201', async () => {
    const token = await sessionCsrf(cookie);
    const res = await api.post(
      '/api/forms',
      { name: 'With token' },
      { headers: { 'x-csrf-token': token } },
    );
    expect(res.status, res.text).toBe(201);
  });

  it('none of the forged requests created a form', async () => {
    const list = expectAnswer(await t.api.get('/api/forms'), 'GET /api/forms', 200);
    const names = list.forms.map((f) => f.name);
    expect(names).not.toContain('Forged');
    expect(names).toEqual(expect.arrayContaining(['Same origin', 'With token']));
  });

  it('an unknown session cookie → 401 unauthorized', async () => {
    const res = await t.http.get('/api', { cookie: 'formward_session=bogus' });
    expectError(res, 401, 'unauthorized');
  });

  it('an expired session → 401 unauthorized', async () => {
    const expiring = await signIn(t.stack.url, t.email, t.password);
    expect((await t.http.get('/api', { cookie: expiring })).status).toBe(200);
    await expireSession(t.stack, expiring);
    expectError(await t.http.get('/api', { cookie: expiring }), 401, 'unauthorized');
  });
});

describe('POST /logout', () => {
  it('clears the cookie and ends the session', async () => {
    const cookie = await signIn(t.stack.url, t.email, t.password);
    const res = await t.http.send('POST', '/logout', {
      cookie,
      headers: { origin: t.stack.url },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/login');
    const cleared = setCookie(res, 'formward_session')!;
    expect(cookieValue(cleared)).toBe('');
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/i);
    expectError(await t.http.get('/api', { cookie }), 401, 'unauthorized');
  });

  it('the sign-out form of the home page works (hidden _csrf)', async () => {
    const cookie = await signIn(t.stack.url, t.email, t.password);
    const res = await t.http.send('POST', '/logout', {
      cookie,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ _csrf: await sessionCsrf(cookie) }).toString(),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true });
    expect((await t.http.get('/api', { cookie })).status).toBe(401);
  });

  it('without CSRF or same Origin → 403 and the session stays valid', async () => {
    const cookie = await signIn(t.stack.url, t.email, t.password);
    const res = await t.http.send('POST', '/logout', {
      cookie,
      headers: { origin: 'https://evil.example' },
    });
    expect(res.status).toBe(403);
    expect((await t.http.get('/api', { cookie })).status).toBe(200);
  });

  it('ending one session leaves the others valid', async () => {
    const first = await signIn(t.stack.url, t.email, t.password);
    const second = await signIn(t.stack.url, t.email, t.password);
    await t.http.send('POST', '/logout', { cookie: first, headers: { origin: t.stack.url } });
    expect((await t.http.get('/api', { cookie: first })).status).toBe(401);
    expect((await t.http.get('/api', { cookie: second })).status).toBe(200);
  });
});
