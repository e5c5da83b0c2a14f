import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, scryptSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  beginPasswordCheck,
  passwordCheckFailed,
  passwordCheckSucceeded,
  throttleKeys,
} from '../../src/domain/accounts/login-throttle';
import { createApp } from '../../src/http/app';
import { request, type ApiResponse } from '../support/api-client';
import { expireSession } from '../support/database-edits';
import { useTestStack } from '../support/fixture';
import { cookieValue, hiddenCsrf, setCookie, signIn } from '../support/sign-in';

const t = useTestStack();

/** Opens the sign-in page at `baseUrl` and posts these credentials through it. */
async function tryLogin(baseUrl: string, email: string, password: string): Promise<ApiResponse> {
  const page = await request('GET', `${baseUrl}/login`);
  const csrf = cookieValue(setCookie(page, 'formward_login_csrf')!);
  return request('POST', `${baseUrl}/login`, {
    cookie: `formward_login_csrf=${csrf}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password, _csrf: hiddenCsrf(page.text)! }).toString(),
  });
}

/** A second HTTP app on the same database, as another `serve` process would be. */
let other: http.Server;
let otherUrl: string;
beforeAll(async () => {
  const app = createApp(t.stack.ctx, { checkTemporal: async () => {}, strictAnswers: true });
  other = http.createServer(app);
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => other.close(() => resolve())));

describe('sign-in throttling', () => {
  it('10 failures for one e-mail: the next tries, right password too, are 429 on every server', async () => {
    const victim = await t.newTenant();
    for (let i = 0; i < 10; i++) {
      const res = await tryLogin(i % 2 ? otherUrl : t.stack.url, victim.email, `wrong ${i}`);
      expect(res.status).toBe(401);
    }
    for (const baseUrl of [t.stack.url, otherUrl]) {
      const res = await tryLogin(baseUrl, victim.email.toUpperCase(), victim.password);
      expect(res.status).toBe(429);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const wait = Number(res.headers.get('retry-after'));
      expect(wait).toBeGreaterThan(14 * 60);
      expect(wait).toBeLessThanOrEqual(15 * 60);
      expect(res.text).toMatch(/Too many failed sign-ins\. Please try again in 15 minutes\./);
      expect(setCookie(res, 'formward_session')).toBeUndefined();
    }
  });

  it('a success forgets the e-mail failures so far', async () => {
    for (let i = 0; i < 9; i++)
      expect((await tryLogin(t.stack.url, t.email, 'nope')).status).toBe(401);
    await signIn(t.stack.url, t.email, t.password);
    expect((await tryLogin(t.stack.url, t.email, 'nope')).status).toBe(401);
    await signIn(t.stack.url, t.email, t.password);
  });

  it('counts per client address too, across e-mails, within a window', async () => {
    const em = () => t.stack.ctx.orm.em.fork();
    const limits = { windowSeconds: 60, perAddress: 3, perEmail: 100 };
    const keys = (n: number) => throttleKeys(`user${n}@example.com`, '203.0.113.9');
    for (let n = 0; n < 3; n++) expect(await beginPasswordCheck(em(), keys(n), limits)).toBe(0);
    expect(await beginPasswordCheck(em(), keys(99), limits)).toBeGreaterThan(55);
    expect(
      await beginPasswordCheck(em(), throttleKeys('x@example.com', '203.0.113.10'), limits),
    ).toBe(0);
    await t.stack.sql(
      `update login_throttle set window_started_at = now() - interval '61 seconds' where key = 'ip:203.0.113.9'`,
    );
    expect(await beginPasswordCheck(em(), keys(99), limits)).toBe(0);
  });
});

describe('parallel password guessing (finding 4)', () => {
  it('30 wrong passwords at once for one e-mail: at most 10 are checked, the rest 429', async () => {
    const victim = await t.newTenant();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        tryLogin(i % 2 ? otherUrl : t.stack.url, victim.email, `guess ${i}`),
      ),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(20);
  });

  it('checks, successes and purges racing on the same keys never deadlock', async () => {
    const em = () => t.stack.ctx.orm.em.fork();
    const limits = { windowSeconds: 60, perAddress: 1000, perEmail: 5 };
    const keys = throttleKeys('race@example.com', '198.51.100.7');
    const outcomes = await Promise.allSettled(
      Array.from({ length: 300 }, async (_, i) => {
        await beginPasswordCheck(em(), keys, limits);
        if (i % 3 === 0) await passwordCheckSucceeded(em(), keys);
        else await passwordCheckFailed(em(), limits);
      }),
    );
    expect(outcomes.filter((o) => o.status === 'rejected').map((o) => String(o.reason))).toEqual(
      [],
    );
  });

  it('an IPv6 client is counted by its /64: rotating addresses inside it does not help', () => {
    const a = throttleKeys('a@example.com', '2001:db8:1:2::1');
    const b = throttleKeys('b@example.com', '2001:db8:1:2:ffff:ffff:ffff:fffe');
    const other = throttleKeys('a@example.com', '2001:db8:1:3::1');
    expect(a.clientKey).toBe('ip:2001:db8:1:2::/64');
    expect(b.clientKey).toBe(a.clientKey);
    expect(other.clientKey).not.toBe(a.clientKey);
    expect(throttleKeys('a@example.com', '::ffff:203.0.113.9').clientKey).toBe('ip:203.0.113.9');
    expect(throttleKeys('a@example.com', '203.0.113.9').clientKey).toBe('ip:203.0.113.9');
  });
});

describe('sign-in upgrades old password hashes and purges expired sessions', () => {
  it('a hash without parameters (N=2^14) signs in and is rehashed at N=2^17', async () => {
    const tenant = await t.newTenant();
    const salt = randomBytes(16);
    const old = `scrypt$${salt.toString('base64')}$${scryptSync(tenant.password, salt, 64).toString('base64')}`;
    await t.stack.sql('update users set password_hash = ? where lower(email) = lower(?)', [
      old,
      tenant.email,
    ]);
    await signIn(t.stack.url, tenant.email, tenant.password);
    const [row] = await t.stack.sql<{ password_hash: string }>(
      'select password_hash from users where lower(email) = lower(?)',
      [tenant.email],
    );
    expect(row!.password_hash).toMatch(/^scrypt\$ln=17,r=8,p=1\$/);
    await signIn(t.stack.url, tenant.email, tenant.password);
  });

  it('an expired session row is deleted at the next sign-in', async () => {
    const cookie = await signIn(t.stack.url, t.email, t.password);
    await expireSession(t.stack, cookie);
    const expired = `select count(*)::int as n from sessions where expires_at <= now()`;
    expect((await t.stack.sql<{ n: number }>(expired))[0]!.n).toBeGreaterThan(0);
    await signIn(t.stack.url, t.email, t.password);
    expect((await t.stack.sql<{ n: number }>(expired))[0]!.n).toBe(0);
  });
});
