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
});
