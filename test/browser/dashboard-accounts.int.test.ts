import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import {
  fillSignUp,
  launchWatchedChromium,
  linkFromMail as mailedLink,
  type WatchedChromium,
} from '../support/dashboard-browser';
import { useTestStack } from '../support/fixture';

// A new person's account journey in a real Chromium, with a real SMTP sink catching the
// e-mails: sign up (the ALTCHA widget solves its challenge in the browser), confirm, sign in,
// change the password, sign out, forgot + reset (which lands on the API keys), sign in again. Every page is screenshotted
// into test/artifacts/, and no page may report a Content-Security-Policy violation.

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink?.close();
});

const t = useTestStack(() => ({ env: { SMTP_URL: sink.url() } }));
let browser: WatchedChromium;

beforeAll(async () => {
  browser = await launchWatchedChromium();
});
afterAll(async () => {
  await browser?.close();
});

const watch = (page: Page) => browser.watch(page);
const shot = (page: Page, name: string) => browser.shot(page, name);

/** The link of the first e-mail to `to` containing `marker` after the `after`-th message. */
const linkFromMail = (to: string, marker: string, after: number) =>
  mailedLink(sink, to, marker, after);

async function signInWith(page: Page, email: string, password: string) {
  await page.goto(`${t.stack.url}/login`);
  await page.fill('input[name="email"]', email);
  await page.fill('input[name="password"]', password);
  await Promise.all([page.waitForLoadState('load'), page.click('form[action="/login"] button')]);
}

describe('a new person’s account journey', () => {
  it(
    'sign up, confirm, sign in, change password, sign out, reset, sign in',
    { timeout: 180_000 },
    async () => {
      const email = `ada-${Date.now()}@example.com`;
      const firstPassword = 'analytical engine 1843';
      const secondPassword = 'difference engine 1822';
      const thirdPassword = 'bernoulli numbers note G';
      const name = '<b>Ada & Co</b>';
      const page = await browser.context.newPage();
      watch(page);

      // Sign up: the widget fetches a challenge and solves it in its worker.
      await fillSignUp(page, t.stack.url, { name, email, password: firstPassword });
      await shot(page, '01-signup');
      let mails = sink.messages.length;
      await Promise.all([
        page.waitForURL(`${t.stack.url}/signup`),
        page.click('form button[type="submit"]'),
      ]);
      expect(await page.textContent('h1')).toBe('Check your e-mail');
      await shot(page, '02-check-email');

      // Unconfirmed: sign-in is refused with a way to get a new link.
      await signInWith(page, email, firstPassword);
      expect(await page.textContent('[role="alert"]')).toContain('confirm your e-mail address');
      await shot(page, '03-unconfirmed');

      // The confirmation link from the e-mail.
      const confirmLink = await linkFromMail(email, '/confirm?token=', mails);
      await page.goto(confirmLink);
      expect(page.url()).toBe(`${t.stack.url}/login`);
      expect(await page.textContent('[role="status"]')).toContain('confirmed');
      await shot(page, '04-confirmed');

      // Sign in: the overview, with the account name shown as text.
      await signInWith(page, email, firstPassword);
      expect(page.url()).toBe(`${t.stack.url}/app`);
      expect(await page.textContent('h1')).toBe(name);
      expect(await page.locator('main b').count()).toBe(0);
      await shot(page, '05-overview');

      // Change the password.
      await page.click('nav a[href="/app/settings"]');
      await page.fill('input[name="current"]', firstPassword);
      await page.fill('input[name="password"]', secondPassword);
      await shot(page, '06-settings');
      await Promise.all([
        page.waitForLoadState('load'),
        page.click('form[action="/app/settings/password"] button'),
      ]);
      expect(await page.textContent('[role="status"]')).toContain('Password changed');
      await shot(page, '07-password-changed');

      // Sign out.
      await Promise.all([page.waitForURL(`${t.stack.url}/login`), page.click('.signout button')]);
      expect(await page.textContent('[role="status"]')).toContain('signed out');
      await page.goto(`${t.stack.url}/app`);
      expect(page.url()).toBe(`${t.stack.url}/login?next=%2Fapp`);
      await shot(page, '08-signed-out');

      // Forgot + reset.
      await page.goto(`${t.stack.url}/forgot`);
      await page.fill('input[name="email"]', email);
      await shot(page, '09-forgot');
      mails = sink.messages.length;
      await Promise.all([
        page.waitForLoadState('load'),
        page.click('form[action="/forgot"] button'),
      ]);
      expect(await page.textContent('h1')).toBe('Check your e-mail');
      const resetLink = await linkFromMail(email, '/reset?token=', mails);
      await page.goto(resetLink);
      await page.fill('input[name="password"]', thirdPassword);
      await shot(page, '10-reset');
      // A reset signs in and shows the account's API keys first, to revoke strangers' keys.
      await Promise.all([
        page.waitForURL(`${t.stack.url}/app/keys`),
        page.click('form button[type="submit"]'),
      ]);
      expect(await page.textContent('[role="status"]')).toContain('password was changed');
      await shot(page, '10b-reset-keys');
      await Promise.all([page.waitForURL(`${t.stack.url}/login`), page.click('.signout button')]);

      // The old password no longer works; the new one does.
      await signInWith(page, email, secondPassword);
      expect(await page.textContent('[role="alert"]')).toContain('Wrong e-mail or password');
      await signInWith(page, email, thirdPassword);
      expect(page.url()).toBe(`${t.stack.url}/app`);
      await shot(page, '11-signed-in-again');
      await page.close();

      expect(browser.cspViolations).toEqual([]);
    },
  );

  it('the CSP watcher does see a violation (an injected inline script)', async () => {
    const page = await browser.context.newPage();
    const seen: string[] = [];
    page.on('console', (message) => seen.push(message.text()));
    await page.goto(`${t.stack.url}/login`);
    await page.evaluate(`{
      const script = document.createElement('script');
      script.textContent = 'document.title = "ran"';
      document.head.append(script);
    }`);
    await expect.poll(() => seen.some((text) => /CSP violation: script-src/.test(text))).toBe(true);
    expect(await page.title()).not.toBe('ran');
    await page.close();
  });
});
