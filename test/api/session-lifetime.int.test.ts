import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectError, request } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import type { TestStack } from '../support/test-stack';
import { cookieValue, hiddenCsrf, setCookie, signIn } from '../support/sign-in';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const tokenOf = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1);

/** Moves the session's last use `interval` into the past. */
async function idle(stack: TestStack, cookie: string, interval: string) {
  await stack.sql(`update sessions set last_seen_at = now() - ?::interval where token_hash = ?`, [
    interval,
    sha256(tokenOf(cookie)),
  ]);
}

async function lastSeenAgoSeconds(stack: TestStack, cookie: string): Promise<number> {
  const [row] = await stack.sql<{ ago: number }>(
    `select extract(epoch from now() - last_seen_at)::float as ago from sessions
     where token_hash = ?`,
    [sha256(tokenOf(cookie))],
  );
  return row!.ago;
}

describe('idle timeout (finding 9)', () => {
  const t = useTestStack();

  it('a session unused for longer than SESSION_IDLE_TIMEOUT (12h) is refused', async () => {
    const cookie = await signIn(t.stack.url, t.email, t.password);
    await idle(t.stack, cookie, '11 hours 58 minutes');
    expect((await t.http.get('/api', { cookie })).status).toBe(200);
    await idle(t.stack, cookie, '12 hours 1 minute');
    expectError(await t.http.get('/api', { cookie }), 401, 'unauthorized');
    const page = await request('GET', `${t.stack.url}/app`, { cookie });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/login?next=%2Fapp');
  });

  it('using a session keeps it alive, writing last_seen_at at most once a minute', async () => {
    const cookie = await signIn(t.stack.url, t.email, t.password);
    await idle(t.stack, cookie, '5 minutes');
    expect((await t.http.get('/api', { cookie })).status).toBe(200);
    expect(await lastSeenAgoSeconds(t.stack, cookie)).toBeLessThan(10);
    await idle(t.stack, cookie, '30 seconds');
    expect((await request('GET', `${t.stack.url}/app`, { cookie })).status).toBe(200);
    expect(await lastSeenAgoSeconds(t.stack, cookie)).toBeGreaterThanOrEqual(30);
  });
});

describe('the session cookie over HTTPS', () => {
  const t = useTestStack({ env: { BASE_URL: 'https://forms.example.test' } });

  it('is __Host-formward_session (Secure, Path=/, no Domain), and only that name is read', async () => {
    const page = await request('GET', `${t.stack.url}/login`);
    const csrf = cookieValue(setCookie(page, 'formward_login_csrf')!);
    const res = await request('POST', `${t.stack.url}/login`, {
      cookie: `formward_login_csrf=${csrf}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        email: t.email,
        password: t.password,
        _csrf: hiddenCsrf(page.text)!,
      }).toString(),
    });
    expect(res.status, res.text).toBe(303);
    expect(setCookie(res, 'formward_session')).toBeUndefined();
    const line = setCookie(res, '__Host-formward_session')!;
    expect(line).toBeDefined();
    expect(line).toMatch(/;\s*Secure/i);
    expect(line).toMatch(/;\s*Path=\/(;|$)/i);
    expect(line).toMatch(/;\s*HttpOnly/i);
    expect(line).not.toMatch(/;\s*Domain=/i);
    const token = cookieValue(line);
    expect((await t.http.get('/api', { cookie: `__Host-formward_session=${token}` })).status).toBe(
      200,
    );
    expect((await t.http.get('/api', { cookie: `formward_session=${token}` })).status).toBe(401);

    const out = await request('POST', `${t.stack.url}/logout`, {
      cookie: `__Host-formward_session=${token}`,
      headers: { origin: 'https://forms.example.test' },
    });
    expect(out.status).toBe(303);
    const cleared = setCookie(out, '__Host-formward_session')!;
    expect(cleared).toMatch(/;\s*Secure/i);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/i);
  });
});
