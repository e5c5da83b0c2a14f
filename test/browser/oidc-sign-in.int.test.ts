import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ARTIFACTS,
  launchWatchedChromium,
  readmeShot,
  type WatchedChromium,
} from '../support/dashboard-browser';
import { useTestStack } from '../support/fixture';
import { freePort, startOidcProvider, type TestOidcProvider } from '../support/oidc-provider';
import { openAppSession } from '../dashboard/dashboard-support';
import { appPost } from '../dashboard/team-support';

// Single sign-on in a real Chromium against a real OpenID Connect provider (oidc-provider):
// "Sign in with …" on /login, the provider's login and consent forms, the dashboard.

let provider: TestOidcProvider;
let port: number;
beforeAll(async () => {
  port = await freePort();
  provider = await startOidcProvider(`http://127.0.0.1:${port}`);
});
afterAll(() => provider?.stop());

const t = useTestStack(() => ({
  env: { PORT: String(port), ...provider.env({ OIDC_NAME: 'Acme ID' }) },
}));

let browser: WatchedChromium;
beforeAll(async () => {
  browser = await launchWatchedChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('single sign-on in a browser', () => {
  it(
    'Sign in with Acme ID → the provider → the dashboard of a new account',
    { timeout: 60_000 },
    async () => {
      const email = `grace-${Date.now()}@example.com`;
      provider.addPerson('grace', { email, email_verified: true });
      const page = await browser.context.newPage();
      const shot = (name: string) =>
        page.screenshot({ path: path.join(ARTIFACTS, `oidc-${name}.png`), fullPage: true });

      await page.goto(`${t.stack.url}/login`);
      browser.watch(page);
      const button = page.getByRole('link', { name: 'Sign in with Acme ID' });
      expect(await button.isVisible()).toBe(true);
      await shot('01-login');
      await readmeShot(page, 'login-sso');

      await Promise.all([page.waitForURL(`${provider.issuer}/**`), button.click()]);
      await page.fill('input[name="login"]', 'grace');
      await page.fill('input[name="password"]', 'any password');
      await shot('02-provider-login');
      await Promise.all([page.waitForLoadState('load'), page.click('button[type="submit"]')]);
      // The provider asks for consent the first time.
      await shot('03-provider-consent');
      await Promise.all([
        page.waitForURL(`${t.stack.url}/app`),
        page.click('button[type="submit"]'),
      ]);
      expect(await page.textContent('body')).toContain(email);
      await shot('04-dashboard');
      expect(browser.cspViolations.filter((v) => v.includes(t.stack.url))).toEqual([]);
    },
  );

  it(
    'an invitation waits for a click after single sign-on: offered on /app/invitations, Accept joins',
    { timeout: 90_000 },
    async () => {
      const email = `ada-${Date.now()}@example.com`;
      provider.addPerson('ada', { email, email_verified: true });
      const owner = await openAppSession(t.stack.url, t.email, t.password);
      const invited = await appPost(t.stack.url, owner, '/app/team/invite', {
        email,
        role: 'viewer',
      });
      expect(invited.status, invited.text).toBe(303);
      await browser.context.clearCookies();
      const page = await browser.context.newPage();
      browser.watch(page);
      const shot = (name: string) =>
        page.screenshot({ path: path.join(ARTIFACTS, `oidc-${name}.png`), fullPage: true });

      await page.goto(`${t.stack.url}/login`);
      await Promise.all([
        page.waitForURL(`${provider.issuer}/**`),
        page.getByRole('link', { name: 'Sign in with Acme ID' }).click(),
      ]);
      await page.fill('input[name="login"]', 'ada');
      await page.fill('input[name="password"]', 'any password');
      await Promise.all([page.waitForLoadState('load'), page.click('button[type="submit"]')]);
      await Promise.all([
        page.waitForURL(`${t.stack.url}/app/invitations`),
        page.click('button[type="submit"]'),
      ]);
      // Signed in to an account of their own; the invitation is only offered.
      const offer = page.locator('[data-invitation-offer]');
      expect(await offer.textContent()).toContain(
        `${t.email} invited you to join the account named “`,
      );
      const [user] = await t.stack.sql<{ id: string }>(
        'select id::text from users where email = ?',
        [email],
      );
      const memberships = () =>
        t.stack.sql<{ account_id: string }>(
          'select account_id::text from memberships where user_id = ?',
          [user!.id],
        );
      expect((await memberships()).map((m) => m.account_id)).not.toContain(t.accountId);
      await shot('05-invitation-offered');

      await Promise.all([
        page.waitForURL(`${t.stack.url}/app`),
        offer.getByRole('button', { name: 'Accept' }).click(),
      ]);
      expect(await page.textContent('.flash')).toContain('Invitation accepted');
      expect((await memberships()).map((m) => m.account_id)).toContain(t.accountId);
      await shot('06-invitation-accepted');
      expect(browser.cspViolations.filter((v) => v.includes(t.stack.url))).toEqual([]);
    },
  );
});
