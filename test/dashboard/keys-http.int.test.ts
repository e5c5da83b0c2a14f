import { describe, expect, it } from 'vitest';
import { expectError, request } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { postForm } from '../support/ingest-requests';
import { type AppSession, followReveal, openAppSession } from './dashboard-support';

// /app/keys over plain HTTP: create (shown once), the list, revoke (refused at once), scopes,
// escaping, CSRF, and a second account that sees and touches nothing of the first's.

const t = useTestStack();

const openApp = (email = t.email, password = t.password) =>
  openAppSession(t.stack.url, email, password);

const post = (session: AppSession, path: string, fields: [string, string][] = []) =>
  postForm(`${t.stack.url}${path}`, [['_csrf', session.csrf], ...fields], {
    cookie: session.cookie,
  });

const keyOn = (html: string) => /<code id="new-key" class="secret">([^<]+)<\/code>/.exec(html)?.[1];

/** Creates a key through the page (post, 303, GET); returns the page and the key shown on it. */
async function createKey(session: AppSession, fields: [string, string][]) {
  const posted = await post(session, '/app/keys', fields);
  const { page: res, reveal } = await followReveal(t.stack.url, session.cookie, posted);
  const key = keyOn(res.text)!;
  return { res, key, reveal };
}

const keyIdOf = (html: string, name: string) =>
  new RegExp(`<td>${name}</td>[\\s\\S]*?action="/app/keys/(\\d+)/revoke"`).exec(html)![1]!;

describe('/app/keys', () => {
  it('an Admin key is shown once with a copy button, listed by prefix, and works', async () => {
    const session = await openApp();
    const { res, key } = await createKey(session, [
      ['name', 'Deploy bot'],
      ['role', 'admin'],
    ]);
    expect(key).toMatch(/^frk_/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.text).toContain('<button type="button" class="copy" data-copy-target="new-key">');

    const api = await request('GET', `${t.stack.url}/api/forms`, { key });
    expect(api.status).toBe(200);
    const listed = () => request('GET', `${t.stack.url}/app/keys`, { cookie: session.cookie });
    const list = await listed();
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(key);
    expect(list.text).toContain(`${key.slice(0, 12)}…`);
    const row = (html: string) => /<td>Deploy bot<\/td>[\s\S]*?<\/tr>/.exec(html)![0];
    expect(row(list.text)).toContain('<td>admin</td>');
    // Created, then last used (the API records the use just after answering).
    const times =
      /<td>\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/td>\s*<td>\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/td>/;
    await expect.poll(async () => row((await listed()).text)).toMatch(times);
  });

  it('post/redirect/get: a reload creates nothing and shows the key no more', async () => {
    const session = await openApp();
    const { key, reveal } = await createKey(session, [
      ['name', 'Once'],
      ['role', 'readonly'],
    ]);
    const reload = await request('GET', `${t.stack.url}/app/keys`, { cookie: session.cookie });
    expect(reload.text).not.toContain(key);
    expect(keyOn(reload.text)).toBeUndefined();
    expect(reload.text.match(/<td>Once<\/td>/g)).toHaveLength(1);
    // The sealed cookie is bound to its session: another session's GET shows nothing.
    const other = await openApp();
    const stolen = await request('GET', `${t.stack.url}/app/keys`, {
      cookie: `${other.cookie}; ${reveal}`,
    });
    expect(stolen.text).not.toContain(key);
  });

  it('Readonly and custom scopes give keys exactly those scopes', async () => {
    const session = await openApp();
    const readonly = await createKey(session, [
      ['name', 'Reader'],
      ['role', 'readonly'],
    ]);
    expectError(
      await request('POST', `${t.stack.url}/api/forms`, { key: readonly.key, json: { name: 'x' } }),
      403,
      'forbidden',
    );
    const custom = await createKey(session, [
      ['name', 'Form maker'],
      ['role', 'custom'],
      ['scopes', 'can_create_forms'],
      ['scopes', 'can_read_spam_submissions'],
    ]);
    const made = await request('POST', `${t.stack.url}/api/forms`, {
      key: custom.key,
      json: { name: 'by a custom key' },
    });
    expect(made.status).toBe(201);
    const list = await request('GET', `${t.stack.url}/app/keys`, { cookie: session.cookie });
    expect(list.text).toMatch(
      /<td>Form maker<\/td>\s*<td>can_create_forms, can_read_spam_submissions<\/td>/,
    );
    expect(list.text).toMatch(/<td>Reader<\/td>\s*<td>readonly<\/td>/);
  });

  it('refuses a missing name, an unknown role, or custom without scopes: 422 next to the field', async () => {
    const session = await openApp();
    const noName = await post(session, '/app/keys', [
      ['name', ' '],
      ['role', 'admin'],
    ]);
    expect(noName.status).toBe(422);
    expect(noName.text).toContain('<p class="field-error" role="alert">Give the key a name.</p>');
    const badRole = await post(session, '/app/keys', [
      ['name', 'x'],
      ['role', 'owner'],
    ]);
    expect(badRole.status).toBe(422);
    expect(badRole.text).toContain('Choose a role.');
    const noScopes = await post(session, '/app/keys', [
      ['name', 'Nothing'],
      ['role', 'custom'],
    ]);
    expect(noScopes.status).toBe(422);
    expect(noScopes.text).toContain('Choose at least one scope.');
    expect(noScopes.text).toContain('value="Nothing"');
    expect(noScopes.text).not.toContain('id="new-key"');
  });

  it('revoking takes effect at once: the API answers 401 invalid_api_key', async () => {
    const session = await openApp();
    const { key, res } = await createKey(session, [
      ['name', 'Short-lived'],
      ['role', 'admin'],
    ]);
    expect((await request('GET', `${t.stack.url}/api/forms`, { key })).status).toBe(200);
    const revoked = await post(session, `/app/keys/${keyIdOf(res.text, 'Short-lived')}/revoke`);
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get('location')).toBe('/app/keys');
    expectError(await request('GET', `${t.stack.url}/api/forms`, { key }), 401, 'invalid_api_key');
    const list = await request('GET', `${t.stack.url}/app/keys`, {
      cookie: `${session.cookie}; ${revoked.headers.getSetCookie()[0]!.split(';')[0]}`,
    });
    expect(list.text).not.toContain('Short-lived');
    expect(list.text).toContain('The key is revoked');
  });

  it('a key name with markup shows as text', async () => {
    const session = await openApp();
    const name = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const { res } = await createKey(session, [
      ['name', name],
      ['role', 'readonly'],
    ]);
    expect(res.text).not.toContain('<script>alert(1)');
    expect(res.text).not.toContain('<img src=x');
    expect(res.text).toContain(
      '&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;',
    );
  });

  it('a state change without the CSRF token is refused (403) and creates nothing', async () => {
    const session = await openApp();
    const res = await postForm(
      `${t.stack.url}/app/keys`,
      [
        ['name', 'Forged'],
        ['role', 'admin'],
      ],
      { cookie: session.cookie },
    );
    expect(res.status).toBe(403);
    const list = await request('GET', `${t.stack.url}/app/keys`, { cookie: session.cookie });
    expect(list.text).not.toContain('Forged');
  });

  it("a second account sees none of the first's keys and cannot revoke them (404)", async () => {
    const first = await openApp();
    const { key, res } = await createKey(first, [
      ['name', 'First account key'],
      ['role', 'admin'],
    ]);
    const other = await t.newTenant();
    const second = await openApp(other.email, other.password);
    const list = await request('GET', `${t.stack.url}/app/keys`, { cookie: second.cookie });
    expect(list.text).not.toContain('First account key');
    const refused = await post(
      second,
      `/app/keys/${keyIdOf(res.text, 'First account key')}/revoke`,
    );
    expect(refused.status).toBe(404);
    expect((await request('GET', `${t.stack.url}/api/forms`, { key })).status).toBe(200);
  });

  it('MAX_API_KEYS_PER_ACCOUNT (50): the 51st key is refused on the page; revoking one makes room', async () => {
    const other = await t.newTenant();
    const session = await openApp(other.email, other.password);
    const active = async () =>
      (
        await t.stack.sql<{ total: number }>(
          'select count(*)::int as total from api_keys where account_id = ? and revoked_at is null',
          [other.accountId],
        )
      )[0]!.total;
    while ((await active()) < 50) await t.stack.createKey(other.accountId, 'readonly');
    const refused = await post(session, '/app/keys', [
      ['name', 'One too many'],
      ['role', 'admin'],
    ]);
    expect(refused.status).toBe(409);
    expect(refused.text).toContain(
      'This account has 50 API keys; MAX_API_KEYS_PER_ACCOUNT allows at most 50. Revoke a key to create another.',
    );
    expect(refused.text).toContain('role="alert"');
    expect(refused.text).toContain('value="One too many"');
    expect(await active()).toBe(50);
    // Revoked keys do not count.
    await t.stack.sql(
      'update api_keys set revoked_at = now() where id = (select min(id) from api_keys where account_id = ?)',
      [other.accountId],
    );
    const { key } = await createKey(session, [
      ['name', 'Now there is room'],
      ['role', 'admin'],
    ]);
    expect(key).toMatch(/^frk_/);
  });
});
