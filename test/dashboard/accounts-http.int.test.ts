import { describe, expect, it } from 'vitest';
import { createAccount } from '../../src/domain/accounts/accounts';
import { request } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { signIn } from '../support/sign-in';
import { openGuestForm, postForm, solvedAltcha } from './dashboard-support';

// The account pages over plain HTTP: CSRF, redirects, no enumeration, ALTCHA replay, limits.

const t = useTestStack();
const unknownEmail = () => `nobody-${Math.random().toString(36).slice(2)}@example.com`;

describe('/app and below', () => {
  it('signed out: 303 to /login?next=<path>', async () => {
    const res = await request('GET', `${t.stack.url}/app/settings?tab=1`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/login?next=%2Fapp%2Fsettings%3Ftab%3D1');
  });

  it('a state change without the CSRF token → 403 page; with the header it goes through', async () => {
    const cookie = await signIn(t.stack.url, t.email, t.password);
    const fields = new URLSearchParams({ current: 'wrong password', password: 'a new password 1' });
    const post = (headers: Record<string, string>) =>
      request('POST', `${t.stack.url}/app/settings/password`, {
        cookie,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: fields.toString(),
      });
    const refused = await post({});
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    expect(refused.text).toContain('Request refused');
    expect((await post({ 'x-csrf-token': 'forged' })).status).toBe(403);
    const overview = await request('GET', `${t.stack.url}/app`, { cookie });
    const token = /name="csrf-token" content="([^"]+)"/.exec(overview.text)![1]!;
    const accepted = await post({ 'x-csrf-token': token });
    expect(accepted.status).toBe(422); // past the CSRF check: the current password is wrong
    expect(accepted.text).toContain('The current password is wrong');
  });

  it('dashboard pages carry the strict CSP: scripts from us only, nothing inline', async () => {
    const cookie = await signIn(t.stack.url, t.email, t.password);
    const res = await request('GET', `${t.stack.url}/app`, { cookie });
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(res.text).not.toMatch(/\sstyle=/);
  });
});

describe('/assets', () => {
  it('serves the stylesheet, htmx and the ALTCHA widget with caching headers, nothing else', async () => {
    for (const [name, type] of [
      ['app.css', /^text\/css/],
      ['htmx.min.js', /javascript/],
      ['altcha.js', /javascript/],
      ['altcha.css', /^text\/css/],
      ['altcha-pbkdf2.js', /javascript/],
    ] as const) {
      const res = await request('GET', `${t.stack.url}/assets/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type'), name).toMatch(type);
      expect(res.headers.get('cache-control'), name).toBe('public, max-age=3600');
      expect(res.headers.get('etag'), name).toBeTruthy();
    }
    expect((await request('GET', `${t.stack.url}/assets/package.json`)).status).toBe(404);
    expect((await request('GET', `${t.stack.url}/assets/..%2Fpackage.json`)).status).toBe(404);
  });
});

describe('sign-in returns to next (same-site paths only)', () => {
  async function loginWithNext(next: string) {
    const guest = await openGuestForm(t.stack.url, `/login?next=${encodeURIComponent(next)}`);
    return postForm(t.stack.url, '/login', guest, { email: t.email, password: t.password, next });
  }

  it('follows a path of this site', async () => {
    const res = await loginWithNext('/app/settings');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/app/settings');
  });

  it.each([
    '//evil.example/x',
    'https://evil.example/',
    '/\\evil.example',
    'javascript:alert(1)',
    '/.//evil.example/x',
    '/%2F%2Fevil.example/x',
  ])('ignores %s', async (next) => {
    const res = await loginWithNext(next);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
  });
});

describe('no account enumeration', () => {
  it(
    'sign-up answers the same for a known and an unknown address',
    { timeout: 60_000 },
    async () => {
      const guest = await openGuestForm(t.stack.url, '/signup');
      const signUp = async (email: string) =>
        postForm(t.stack.url, '/signup', guest, {
          email,
          password: 'a long enough password',
          name: '',
          altcha: await solvedAltcha(t.stack.url),
        });
      const known = await signUp(t.email);
      const unknown = await signUp(unknownEmail());
      expect(known.status).toBe(200);
      expect(unknown.status).toBe(known.status);
      expect(unknown.text).toBe(known.text);
    },
  );

  it('forgot answers the same for a known and an unknown address', async () => {
    const guest = await openGuestForm(t.stack.url, '/forgot');
    const known = await postForm(t.stack.url, '/forgot', guest, { email: t.email });
    const unknown = await postForm(t.stack.url, '/forgot', guest, { email: unknownEmail() });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.text).toBe(known.text);
  });

  it('the confirmation resend answers the same for a known and an unknown address', async () => {
    const guest = await openGuestForm(t.stack.url, '/login');
    const known = await postForm(t.stack.url, '/confirm', guest, { email: t.email });
    const unknown = await postForm(t.stack.url, '/confirm', guest, { email: unknownEmail() });
    expect(known.status).toBe(200);
    expect(unknown.text).toBe(known.text);
  });
});

describe('sign-up', () => {
  it(
    'a solved ALTCHA challenge is accepted once; its replay is refused',
    { timeout: 60_000 },
    async () => {
      const guest = await openGuestForm(t.stack.url, '/signup');
      const altcha = await solvedAltcha(t.stack.url);
      const fields = { password: 'a long enough password', name: '', altcha };
      const first = await postForm(t.stack.url, '/signup', guest, {
        ...fields,
        email: unknownEmail(),
      });
      expect(first.status).toBe(200);
      const replay = await postForm(t.stack.url, '/signup', guest, {
        ...fields,
        email: unknownEmail(),
      });
      expect(replay.status).toBe(422);
      expect(replay.text).toContain('anti-robot check');
    },
  );

  it('refuses a missing or forged challenge, a short password and a missing CSRF token', async () => {
    const guest = await openGuestForm(t.stack.url, '/signup');
    const base = { email: unknownEmail(), password: 'a long enough password', name: '' };
    expect((await postForm(t.stack.url, '/signup', guest, base)).status).toBe(422);
    const forged = Buffer.from(
      JSON.stringify({
        challenge: { parameters: {}, signature: 'x' },
        solution: { counter: 1, derivedKey: 'ab' },
      }),
    ).toString('base64');
    expect(
      (await postForm(t.stack.url, '/signup', guest, { ...base, altcha: forged })).status,
    ).toBe(422);
    const short = await postForm(t.stack.url, '/signup', guest, { ...base, password: 'short' });
    expect(short.status).toBe(422);
    expect(short.text).toContain('at least 10 characters');
    const noCsrf = await postForm(t.stack.url, '/signup', { ...guest, csrf: 'wrong' }, base);
    expect(noCsrf.status).toBe(403);
  });
});

describe('unconfirmed accounts', () => {
  it('cannot sign in: a clear message and a resend form', async () => {
    const email = unknownEmail();
    await createAccount(t.stack.ctx.orm.em.fork(), {
      email,
      password: 'correct horse battery',
      confirmed: false,
    });
    const guest = await openGuestForm(t.stack.url, '/login');
    const res = await postForm(t.stack.url, '/login', guest, {
      email,
      password: 'correct horse battery',
    });
    expect(res.status).toBe(403);
    expect(res.text).toContain('confirm your e-mail address');
    expect(res.text).toMatch(/<form method="POST" action="\/confirm"/);
    expect(res.headers.getSetCookie().some((c) => c.startsWith('formward_session='))).toBe(false);
  });
});

describe('rate limits', () => {
  it('forgot: the 4th request for one address in an hour → 429 with Retry-After', async () => {
    const guest = await openGuestForm(t.stack.url, '/forgot');
    const email = unknownEmail();
    for (let i = 0; i < 3; i++)
      expect((await postForm(t.stack.url, '/forgot', guest, { email })).status).toBe(200);
    const limited = await postForm(t.stack.url, '/forgot', guest, { email });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.text).toContain('Too many requests');
  });

  it('the counters live in PostgreSQL (shared by every serve process)', async () => {
    const rows = await t.stack.sql<{ key: string }>(
      "select key from rate_limits where key like 'forgot:%'",
    );
    expect(rows.length).toBeGreaterThan(0);
  });
});

describe('change password', () => {
  it('ends the user’s other sessions and keeps this one', async () => {
    const tenant = await t.newTenant();
    const here = await signIn(t.stack.url, tenant.email, tenant.password);
    const elsewhere = await signIn(t.stack.url, tenant.email, tenant.password);
    const overview = await request('GET', `${t.stack.url}/app`, { cookie: here });
    const csrf = /name="csrf-token" content="([^"]+)"/.exec(overview.text)![1]!;
    const res = await request('POST', `${t.stack.url}/app/settings/password`, {
      cookie: here,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        _csrf: csrf,
        current: tenant.password,
        password: 'a brand new password',
      }).toString(),
    });
    expect(res.status).toBe(303);
    expect((await request('GET', `${t.stack.url}/app`, { cookie: here })).status).toBe(200);
    expect((await request('GET', `${t.stack.url}/app`, { cookie: elsewhere })).status).toBe(303);
  });
});

describe('dev mailbox (no SMTP_URL)', () => {
  it('shows the kept e-mails with their links, only to a direct loopback request', async () => {
    const guest = await openGuestForm(t.stack.url, '/forgot');
    expect((await postForm(t.stack.url, '/forgot', guest, { email: t.email })).status).toBe(200);
    let list = await request('GET', `${t.stack.url}/dev/mailbox`);
    for (let i = 0; i < 50 && !list.text.includes('Reset your Formward password'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      list = await request('GET', `${t.stack.url}/dev/mailbox`);
    }
    expect(list.status).toBe(200);
    const href = /href="(\/dev\/mailbox\/[^"]+)">Reset your Formward password/.exec(list.text)![1]!;
    const message = await request('GET', `${t.stack.url}${href}`);
    expect(message.text).toMatch(/<a href="http:\/\/127\.0\.0\.1:\d+\/reset\?token=[\w-]+">/);
    const proxied = await request('GET', `${t.stack.url}/dev/mailbox`, {
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(proxied.status).toBe(404);
  });
});

describe('dev mailbox behind a public BASE_URL', () => {
  // Finding 11 of the security review: a proxy on this host that adds no forwarding header
  // makes every visitor a direct loopback request, and the mailbox holds reset links.
  const behind = useTestStack({ env: { BASE_URL: 'https://forms.example.com' } });

  it('is not served, even to a direct loopback request', async () => {
    expect(behind.stack.ctx.accounts.mailing.mailer.kind).toBe('dev-mailbox');
    const list = await request('GET', `${behind.stack.url}/dev/mailbox`);
    expect(list.status).toBe(404);
    expect(list.text).not.toContain('Dev mailbox');
  });
});

describe('escaping', () => {
  it('a markup-laden account name renders as text', async () => {
    const email = unknownEmail();
    const name = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
    await createAccount(t.stack.ctx.orm.em.fork(), {
      email,
      password: 'correct horse battery',
      name,
    });
    const cookie = await signIn(t.stack.url, email, 'correct horse battery');
    const page = await request('GET', `${t.stack.url}/app`, { cookie });
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).not.toContain('<script>alert');
    expect(page.text).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
  });
});
