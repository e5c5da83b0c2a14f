import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { request } from '../support/api-client';
import { linkFromMail } from '../support/dashboard-browser';
import { useTestStack } from '../support/fixture';
import { cookieValue, setCookie, signIn } from '../support/sign-in';
import {
  followReveal,
  openAppSession,
  openGuestForm,
  postForm,
  solvedAltcha,
} from './dashboard-support';

// Security review, issue 18: taking over an address by signing it up first (finding 1),
// brute-forcing the current password through a stolen session (finding 9).

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink?.close();
});

const t = useTestStack(() => ({ env: { SMTP_URL: sink.url() } }));
const freshEmail = (who: string) => `${who}-${Math.random().toString(36).slice(2)}@corp.example`;

/** Signs the address up through /signup (ALTCHA solved) and returns the link mailed for it. */
async function signUpAndGetLink(email: string, password: string): Promise<string> {
  const guest = await openGuestForm(t.stack.url, '/signup');
  const mails = sink.messages.length;
  const res = await postForm(t.stack.url, '/signup', guest, {
    email,
    password,
    name: '',
    altcha: await solvedAltcha(t.stack.url),
  });
  expect(res.status, res.text).toBe(200);
  return linkFromMail(sink, email, '/confirm?token=', mails);
}

/** Asks for a reset link at /forgot and sets `password` through it: the answer of the reset. */
async function resetThroughMail(email: string, password: string) {
  const forgot = await openGuestForm(t.stack.url, '/forgot');
  const mails = sink.messages.length;
  await postForm(t.stack.url, '/forgot', forgot, { email });
  const link = new URL(await linkFromMail(sink, email, '/reset?token=', mails));
  const resetPath = `${link.pathname}${link.search}`;
  const guest = await openGuestForm(t.stack.url, resetPath);
  return postForm(t.stack.url, resetPath, guest, { password });
}

async function tryLogin(email: string, password: string) {
  const guest = await openGuestForm(t.stack.url, '/login');
  return postForm(t.stack.url, '/login', guest, { email, password });
}

describe('sign-up of an address someone else signed up first (finding 1)', () => {
  it(
    'whoever confirms owns the password of the link they followed; the other link dies',
    { timeout: 120_000 },
    async () => {
      const email = freshEmail('victim');
      const attackerLink = await signUpAndGetLink(email, 'attacker password 1');
      const victimLink = await signUpAndGetLink(email, 'victim password 22');
      expect(victimLink).not.toBe(attackerLink);

      const confirmed = await request('GET', victimLink);
      expect(confirmed.status).toBe(303);
      expect(confirmed.headers.get('location')).toBe('/login');

      expect((await tryLogin(email, 'attacker password 1')).status).toBe(401);
      await signIn(t.stack.url, email, 'victim password 22');
      expect((await request('GET', attackerLink)).status).toBe(400);
      expect((await tryLogin(email, 'attacker password 1')).status).toBe(401);
    },
  );

  it(
    'following the first link gives the first password and kills the later link',
    { timeout: 120_000 },
    async () => {
      const email = freshEmail('first');
      const firstLink = await signUpAndGetLink(email, 'first password 111');
      const secondLink = await signUpAndGetLink(email, 'second password 222');
      expect((await request('GET', firstLink)).status).toBe(303);
      expect((await request('GET', secondLink)).status).toBe(400);
      expect((await tryLogin(email, 'second password 222')).status).toBe(401);
      await signIn(t.stack.url, email, 'first password 111');
    },
  );

  it(
    'an unconfirmed sign-up whose link expired is deleted at the next sign-up',
    { timeout: 120_000 },
    async () => {
      const email = freshEmail('expired');
      await signUpAndGetLink(email, 'expired password 1');
      const count = async () =>
        (
          await t.stack.sql<{ n: number }>(
            `select count(*)::int as n from users u join memberships m on m.user_id = u.id
               join accounts a on a.id = m.account_id
             where lower(u.email) = lower(?)`,
            [email],
          )
        )[0]!.n;
      expect(await count()).toBe(1);
      await t.stack.sql(
        `update users set created_at = now() - interval '49 hours' where lower(email) = lower(?)`,
        [email],
      );
      await t.stack.sql(
        `update account_tokens set expires_at = now() - interval '1 hour'
         where user_id = (select id from users where lower(email) = lower(?))`,
        [email],
      );
      await signUpAndGetLink(freshEmail('someone-else'), 'another password 1');
      expect(await count()).toBe(0);
      // Confirmed accounts are never touched, however old.
      await signIn(t.stack.url, t.email, t.password);
    },
  );
});

describe('after a password reset (finding 1)', () => {
  it(
    'the next page lists the account’s API keys with creator and last use, to revoke',
    { timeout: 120_000 },
    async () => {
      const tenant = await t.newTenant();
      // Someone who had the password makes a key in the dashboard and uses it.
      const attacker = await openAppSession(t.stack.url, tenant.email, tenant.password);
      const posted = await request('POST', `${t.stack.url}/app/keys`, {
        cookie: attacker.cookie,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          _csrf: attacker.csrf,
          name: 'left behind',
          role: 'admin',
        }).toString(),
      });
      const { page: revealed } = await followReveal(t.stack.url, attacker.cookie, posted);
      const key = /frk_[A-Za-z0-9_-]+/.exec(revealed.text)![0];
      expect(
        (
          await request('GET', `${t.stack.url}/api`, {
            headers: { authorization: `Bearer ${key}` },
          })
        ).status,
      ).toBe(200);
      const [row] = await t.stack.sql<{ last_used_at: Date | null; created_by_user_id: string }>(
        `select last_used_at, created_by_user_id from api_keys where name = 'left behind'
         and account_id = ?`,
        [tenant.accountId],
      );
      expect(row!.created_by_user_id).not.toBeNull();
      for (let i = 0; i < 50 && !(await lastUsed(tenant.accountId)); i++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await lastUsed(tenant.accountId)).not.toBeNull();

      // The owner resets the password through the mailed link.
      const reset = await resetThroughMail(tenant.email, 'a brand new password');
      expect(reset.status, reset.text).toBe(303);
      expect(reset.headers.get('location')).toBe('/app/keys');
      const session = `formward_session=${cookieValue(setCookie(reset, 'formward_session')!)}`;
      const flash = `formward_flash=${cookieValue(setCookie(reset, 'formward_flash')!)}`;

      const keys = await request('GET', `${t.stack.url}/app/keys`, {
        cookie: `${session}; ${flash}`,
      });
      expect(keys.status).toBe(200);
      expect(keys.text).toContain('revoke below any key you do not recognise');
      const keyRow = /<tr>\s*<td>left behind<\/td>[\s\S]*?<\/tr>/.exec(keys.text)![0];
      expect(keyRow).toContain(tenant.email);
      expect(keyRow).not.toContain('never');
      expect(keyRow).toMatch(/action="\/app\/keys\/\d+\/revoke"/);
      // The CLI-made admin key of the account is listed too, its creator not recorded.
      expect(keys.text).toContain('not recorded (CLI or older key)');
      // The session of whoever had the password ended.
      expect((await request('GET', `${t.stack.url}/app`, { cookie: attacker.cookie })).status).toBe(
        303,
      );
    },
  );
});

async function lastUsed(accountId: string) {
  const [row] = await t.stack.sql<{ last_used_at: Date | null }>(
    `select last_used_at from api_keys where name = 'left behind' and account_id = ?`,
    [accountId],
  );
  return row?.last_used_at ?? null;
}

describe('changing the password with a stolen session (finding 9)', () => {
  it('is throttled like sign-in: after 10 wrong current passwords, 429 without a check', async () => {
    const tenant = await t.newTenant();
    const session = await openAppSession(t.stack.url, tenant.email, tenant.password);
    const change = (current: string) =>
      request('POST', `${t.stack.url}/app/settings/password`, {
        cookie: session.cookie,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          _csrf: session.csrf,
          current,
          password: 'a brand new password',
        }).toString(),
      });
    for (let i = 0; i < 10; i++) expect((await change(`guess number ${i}`)).status).toBe(422);
    const limited = await change(tenant.password);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.text).toContain('Too many wrong passwords');
    // The password did not change, and sign-in shares the budget: it is throttled too.
    expect((await tryLogin(tenant.email, tenant.password)).status).toBe(429);
    // Until the owner resets the password through the mail: that proves the mailbox.
    expect((await resetThroughMail(tenant.email, 'the owner is back 1')).status).toBe(303);
    await signIn(t.stack.url, tenant.email, 'the owner is back 1');
  });
});
