import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/domain/accounts/accounts';
import { sha256Hex } from '../../src/domain/accounts/secrets';
import { request } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { freePort, startOidcProvider, type TestOidcProvider } from '../support/oidc-provider';
import { eventually } from '../support/eventually';
import { browse, CookieJar, signInAtProvider } from '../support/oidc-flow';
import { signIn } from '../support/sign-in';

// Single sign-on against a real OpenID Connect provider (oidc-provider), over plain HTTP.

let provider: TestOidcProvider;
let port: number;
beforeAll(async () => {
  port = await freePort();
  provider = await startOidcProvider(`http://127.0.0.1:${port}`);
});
afterAll(() => provider?.stop());

const t = useTestStack(() => ({
  env: { PORT: String(port), ...provider.env({ OIDC_NAME: 'Example ID' }) },
}));

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;

/** A person at the provider with a fresh login and address. */
function person(emailVerified = true, email = `${unique('sso')}@example.com`) {
  const login = unique('login');
  provider.addPerson(login, { email, email_verified: emailVerified });
  return { login, email };
}

/** The session cookie's token of a callback's answer, if it set one. */
const sessionToken = (jar: CookieJar) => jar.get(t.stack.url, 'formward_session');

async function sessionOf(token: string) {
  const [row] = await t.stack.sql<{ user_id: string; account_id: string }>(
    'select user_id::text, account_id::text from sessions where token_hash = ?',
    [sha256Hex(token)],
  );
  return row!;
}

const countUsers = async (email: string) =>
  Number(
    (
      await t.stack.sql<{ n: string }>(
        'select count(*) as n from users where lower(email) = lower(?)',
        [email],
      )
    )[0]!.n,
  );

const countIdentities = async () =>
  Number((await t.stack.sql<{ n: string }>('select count(*) as n from user_identities'))[0]!.n);

describe('the button', () => {
  it('shows "Sign in with <OIDC_NAME>" on /login (keeping next) and /signup', async () => {
    const login = await request('GET', `${t.stack.url}/login?next=%2Fapp%2Fforms`);
    expect(login.text).toContain(
      'href="/login/oidc?next=%2Fapp%2Fforms">Sign in with Example ID</a>',
    );
    const signup = await request('GET', `${t.stack.url}/signup`);
    expect(signup.text).toContain('href="/login/oidc">Sign in with Example ID</a>');
  });
});

describe('a verified address', () => {
  it('an unknown address: a new confirmed user with their own account, signed in, linked', async () => {
    const someone = person();
    const jar = new CookieJar();
    const callback = await signInAtProvider(jar, t.stack.url, someone.login);
    const res = await browse(jar, callback);
    expect(res.status, await res.text()).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    const token = sessionToken(jar)!;
    expect(token).toBeDefined();
    const session = await sessionOf(token);
    const [user] = await t.stack.sql<{ id: string; email: string; confirmed: boolean }>(
      'select id::text, email, email_confirmed_at is not null as confirmed from users where id = ?',
      [session.user_id],
    );
    expect(user).toMatchObject({ email: someone.email, confirmed: true });
    const memberships = await t.stack.sql<{ account_id: string; role: string }>(
      'select account_id::text, role from memberships where user_id = ?',
      [user!.id],
    );
    expect(memberships).toEqual([{ account_id: session.account_id, role: 'owner' }]);
    const identities = await t.stack.sql<{ issuer: string; subject: string }>(
      'select issuer, subject from user_identities where user_id = ?',
      [user!.id],
    );
    expect(identities).toEqual([{ issuer: provider.issuer, subject: someone.login }]);
    const app = await request('GET', `${t.stack.url}/app`, { cookie: `formward_session=${token}` });
    expect(app.status).toBe(200);
    expect(app.text).toContain(someone.email);
  });

  it('an existing user with that address (any case) signs in to their account', async () => {
    const someone = person(true, t.email.toUpperCase());
    const jar = new CookieJar();
    const res = await browse(jar, await signInAtProvider(jar, t.stack.url, someone.login));
    expect(res.status, await res.text()).toBe(303);
    const session = await sessionOf(sessionToken(jar)!);
    expect(session.account_id).toBe(t.accountId);
    expect(await countUsers(t.email)).toBe(1);
    // The password still works: nothing of the user changed.
    await signIn(t.stack.url, t.email, t.password);
  });

  it('a linked subject whose address changed at the provider signs in the same user', async () => {
    const someone = person();
    const first = new CookieJar();
    await browse(first, await signInAtProvider(first, t.stack.url, someone.login));
    const before = await sessionOf(sessionToken(first)!);
    const changed = `${unique('changed')}@example.com`;
    provider.addPerson(someone.login, { email: changed, email_verified: true });
    const second = new CookieJar();
    const res = await browse(second, await signInAtProvider(second, t.stack.url, someone.login));
    expect(res.status).toBe(303);
    expect((await sessionOf(sessionToken(second)!)).user_id).toBe(before.user_id);
    expect(await countUsers(changed)).toBe(0);
  });

  it('an unconfirmed sign-up becomes confirmed, and the password its sign-up chose stops working', async () => {
    const email = `${unique('pending')}@example.com`;
    await createAccount(t.stack.ctx.orm.em.fork(), {
      email,
      password: 'a stranger chose this',
      confirmed: false,
    });
    const jar = new CookieJar();
    const res = await browse(
      jar,
      await signInAtProvider(jar, t.stack.url, person(true, email).login),
    );
    expect(res.status).toBe(303);
    const [user] = await t.stack.sql<{ confirmed: boolean }>(
      'select email_confirmed_at is not null as confirmed from users where lower(email) = ?',
      [email],
    );
    expect(user!.confirmed).toBe(true);
    const page = await request('GET', `${t.stack.url}/login`);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1]!;
    const cookie = page.headers.getSetCookie()[0]!.split(';')[0]!;
    const attempt = await request('POST', `${t.stack.url}/login`, {
      cookie,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        email,
        password: 'a stranger chose this',
        _csrf: csrf,
      }).toString(),
    });
    expect(attempt.status).toBe(401);
  });

  it('goes to a same-site next, and ignores another site’s', async () => {
    const someone = person();
    const jar = new CookieJar();
    const here = await browse(
      jar,
      await signInAtProvider(jar, t.stack.url, someone.login, '/app/settings'),
    );
    expect(here.headers.get('location')).toBe('/app/settings');
    for (const next of ['https://evil.example/x', '//evil.example/x', '/\\evil.example']) {
      const other = new CookieJar();
      const res = await browse(
        other,
        await signInAtProvider(other, t.stack.url, someone.login, next),
      );
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/');
    }
  });
});

describe('refusals create nothing', () => {
  it('email_verified false: 403 with a message, no user, no link, no session', async () => {
    const someone = person(false);
    const identities = await countIdentities();
    const jar = new CookieJar();
    const res = await browse(jar, await signInAtProvider(jar, t.stack.url, someone.login));
    const html = await res.text();
    expect(res.status).toBe(403);
    expect(html).toContain('did not confirm that your e-mail address is verified');
    expect(sessionToken(jar)).toBeUndefined();
    expect(await countUsers(someone.email)).toBe(0);
    expect(await countIdentities()).toBe(identities);
  });

  it('a second subject with the address of a linked user: 403, never re-linked, recorded', async () => {
    const first = person();
    const jar = new CookieJar();
    expect((await browse(jar, await signInAtProvider(jar, t.stack.url, first.login))).status).toBe(
      303,
    );
    const owner = await sessionOf(sessionToken(jar)!);
    // The provider gave the address to someone else (a recycled address): a new subject.
    const second = person(true, first.email);
    const identities = await countIdentities();
    const other = new CookieJar();
    const res = await browse(other, await signInAtProvider(other, t.stack.url, second.login));
    const html = await res.text();
    expect(res.status, html).toBe(403);
    expect(html).toContain(`linked to another account at ${provider.issuer}`);
    expect(sessionToken(other)).toBeUndefined();
    expect(await countIdentities()).toBe(identities);
    const links = await t.stack.sql<{ subject: string }>(
      'select subject from user_identities where user_id = ?',
      [owner.user_id],
    );
    expect(links).toEqual([{ subject: first.login }]);
    const [entry] = await t.stack.sql<{ action: string; summary: string }>(
      `select action, summary from audit_events where account_id = ? and target_id = ?
        order by id desc limit 1`,
      [owner.account_id, owner.user_id],
    );
    expect(entry).toMatchObject({ action: 'session.sign_in_refused' });
    expect(entry!.summary).toContain(provider.issuer);
    // The linked subject still signs in.
    const again = new CookieJar();
    expect(
      (await browse(again, await signInAtProvider(again, t.stack.url, first.login))).status,
    ).toBe(303);
    expect((await sessionOf(sessionToken(again)!)).user_id).toBe(owner.user_id);
  });

  it('a tampered state: 400, nothing created', async () => {
    const someone = person();
    const jar = new CookieJar();
    const callback = new URL(await signInAtProvider(jar, t.stack.url, someone.login));
    callback.searchParams.set('state', `${callback.searchParams.get('state')}x`);
    const res = await browse(jar, callback.href);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('could not be checked, or was already used');
    expect(sessionToken(jar)).toBeUndefined();
    expect(await countUsers(someone.email)).toBe(0);
  });

  it('a replayed callback: 400, even with the pending sign-in’s cookie kept', async () => {
    const someone = person();
    const jar = new CookieJar();
    const callback = await signInAtProvider(jar, t.stack.url, someone.login);
    const pending = jar.get(t.stack.url, 'formward_oidc')!;
    expect(pending).toBeDefined();
    expect((await browse(jar, callback)).status).toBe(303);
    // The browser itself: its pending sign-in is used up.
    const again = new CookieJar();
    const replay = await browse(jar, callback);
    expect(replay.status).toBe(400);
    // Someone who kept the cookie: the provider refuses a used code.
    again.set(t.stack.url, 'formward_oidc', pending);
    const stolen = await browse(again, callback);
    expect(stolen.status).toBe(400);
    expect(sessionToken(again)).toBeUndefined();
  });

  it('a callback without a sign-in started in this browser: 400', async () => {
    const someone = person();
    const started = new CookieJar();
    const callback = await signInAtProvider(started, t.stack.url, someone.login);
    const res = await browse(new CookieJar(), callback);
    expect(res.status).toBe(400);
    expect(await countUsers(someone.email)).toBe(0);
  });

  it('access_denied from the provider: 403 with a message', async () => {
    const jar = new CookieJar();
    const start = await browse(jar, `${t.stack.url}/login/oidc`);
    const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
    const res = await browse(
      jar,
      `${t.stack.url}/login/oidc/callback?error=access_denied&state=${state}&iss=${encodeURIComponent(provider.issuer)}`,
    );
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('The sign-in was cancelled at the provider.');
  });
});

describe('without OIDC_ISSUER', () => {
  const plain = useTestStack();

  it('no button, and /login/oidc is not found', async () => {
    const login = await request('GET', `${plain.stack.url}/login`);
    expect(login.status).toBe(200);
    expect(login.text).not.toContain('/login/oidc');
    expect((await request('GET', `${plain.stack.url}/signup`)).text).not.toContain('/login/oidc');
    expect((await request('GET', `${plain.stack.url}/login/oidc`)).status).toBe(404);
    expect(
      (await request('GET', `${plain.stack.url}/login/oidc/callback?code=x&state=y`)).status,
    ).toBe(404);
  });
});

describe('a provider down at start-up', () => {
  let stackPort: number;
  let providerPort: number;
  let late: TestOidcProvider | undefined;
  beforeAll(async () => {
    [stackPort, providerPort] = [await freePort(), await freePort()];
  });
  afterAll(() => late?.stop());
  const down = useTestStack(() => ({
    env: {
      PORT: String(stackPort),
      OIDC_ISSUER: `http://127.0.0.1:${providerPort}`,
      OIDC_CLIENT_ID: 'formward-test',
      OIDC_CLIENT_SECRET: 'a client secret for the tests only, long enough',
    },
  }));

  it(
    'the service starts; single sign-on answers 503 until the provider is back',
    { timeout: 60_000 },
    async () => {
      const login = await request('GET', `${down.stack.url}/login`);
      expect(login.text).toContain('Sign in with single sign-on');
      const refused = await request('GET', `${down.stack.url}/login/oidc`);
      expect(refused.status).toBe(503);
      expect(refused.text).toContain('cannot be reached right now');
      late = await startOidcProvider(down.stack.url, { port: providerPort });
      const location = await eventually(
        async () => {
          const res = await request('GET', `${down.stack.url}/login/oidc`);
          return res.status === 303 && res.headers.get('location');
        },
        { timeoutMs: 30_000, intervalMs: 1000, what: 'discovery retried' },
      );
      expect(location).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${providerPort}/auth\\?`));
    },
  );
});
