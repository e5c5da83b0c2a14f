import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { waitForAttempts } from '../support/delivery-attempts';
import {
  launchWatchedChromium,
  signInWith,
  type WatchedChromium,
} from '../support/dashboard-browser';
import { useTestStack } from '../support/fixture';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { submitJson } from '../support/ingest-requests';

// Webhooks, the delivery log with replay, and the stats charts in a real Chromium: add a
// webhook to a local HTTPS receiver, see the delivery, make the receiver fail, see the failed
// attempts, replay, see success; the charts are drawn. No page may report a CSP violation;
// every page is screenshotted into test/artifacts/.

let failing = false;
let hook: HttpsReceiver;
beforeAll(async () => {
  hook = await startHttpsReceiver(inject('stack').certificates, () =>
    failing ? { status: 503, body: 'receiver down <i>for maintenance</i>' } : { status: 200 },
  );
});
afterAll(async () => {
  await hook?.close();
});

const t = useTestStack({
  worker: true,
  form: { name: 'Contact <b>us</b>' },
  env: {
    WEBHOOK_ALLOW_PRIVATE: '127.0.0.1',
    WEBHOOK_RETRY_INITIAL_INTERVAL: '1s',
    WEBHOOK_RETRY_BACKOFF_COEFFICIENT: '1',
    TEMPORAL_UI_URL: 'http://127.0.0.1:8233',
  },
});
let browser: WatchedChromium;
beforeAll(async () => {
  browser = await launchWatchedChromium();
});
afterAll(async () => {
  await browser?.close();
});

const shot = (page: Page, name: string) => browser.shot(page, `hooks-${name}`);

async function submitAndWait(page: Page, selector: string) {
  await Promise.all([page.waitForLoadState('load'), page.click(selector)]);
}

describe('webhooks, deliveries and stats in a browser', () => {
  it(
    'add a webhook, see deliveries fail and succeed, replay, see the charts',
    { timeout: 180_000 },
    async () => {
      const page = await browser.context.newPage();
      browser.watch(page);
      await signInWith(page, t.stack.url, t);

      // Add a webhook: the secret is shown once.
      await page.goto(`${t.stack.url}/app/forms/${t.form.id}/plugins`);
      await page.fill('#add-webhook input[name="url"]', `${hook.url}/hooks/formward`);
      await page.fill('#add-webhook input[name="name"]', 'Receiver <script>x</script>');
      await submitAndWait(page, '#add-webhook button');
      expect(await page.textContent('#signing-secret')).toMatch(/^whsec_/);
      expect(await page.locator('main script').count()).toBe(0);
      await shot(page, '01-webhook-created');

      // A delivery that succeeds, seen in the webhook's log.
      const first = await submitJson(t.form, { email: 'ada@example.com', message: 'Hello' });
      await waitForAttempts(t.stack, first, 1);
      await page.goto(`${t.stack.url}/app/forms/${t.form.id}/plugins`);
      await submitAndWait(page, 'a[href$="/deliveries"]');
      expect(await page.locator('tr.status-succeeded').count()).toBe(1);
      await shot(page, '02-webhook-deliveries');

      // The receiver fails: four failed attempts with its answer shown as text.
      failing = true;
      const second = await submitJson(t.form, { email: 'ada@example.com', message: 'Again' });
      await waitForAttempts(t.stack, second, 4, 60_000);
      await page.goto(`${t.stack.url}/app/submissions/${second}/deliveries`);
      expect(await page.locator('tr.status-failed, tr.status-pending_retry').count()).toBe(4);
      await page.locator('details summary').first().click();
      expect(await page.textContent('pre.answer')).toBe('receiver down <i>for maintenance</i>');
      expect(await page.locator('pre.answer i').count()).toBe(0);
      expect(await page.getAttribute('a[href*="/history"]', 'href')).toMatch(
        /^http:\/\/127\.0\.0\.1:8233\/namespaces\/default\/workflows\/submission-\d+\/[^/]+\/history$/,
      );
      await shot(page, '03-failed-attempts');

      // Replay once the receiver is back: a successful replay attempt.
      failing = false;
      await submitAndWait(page, 'form[action$="/replay"] button');
      expect(await page.textContent('[role="status"]')).toContain('Replay started');
      await waitForAttempts(t.stack, second, 5, 60_000);
      await page.reload();
      expect(await page.locator('tr.status-succeeded').count()).toBe(1);
      expect(await page.locator('tr.status-succeeded .tag').textContent()).toBe('replay');
      await shot(page, '04-replayed');

      // Stats: the numbers as a table and three charts drawn by uPlot.
      await page.goto(`${t.stack.url}/app/forms/${t.form.id}/stats`);
      await expect.poll(() => page.locator('#stats-charts .uplot canvas').count()).toBe(3);
      await shot(page, '05-form-stats');
      await page.click('nav a[href="/app/stats"]');
      await expect.poll(() => page.locator('#stats-charts .uplot canvas').count()).toBe(3);
      expect(await page.locator('main b').count()).toBe(0);
      await shot(page, '06-account-stats');

      // A Slack channel added on the plugin page: the next submission arrives as Block Kit.
      const slack = await startHttpsReceiver(inject('stack').certificates, () => ({
        status: 200,
        body: 'ok',
      }));
      try {
        await page.goto(`${t.stack.url}/app/forms/${t.form.id}/plugins`);
        await page.fill('#add-slack input[name="url"]', `${slack.url}/services/T/B/x`);
        await page.fill('#add-slack input[name="name"]', 'Team <i>channel</i>');
        await submitAndWait(page, '#add-slack button');
        expect(await page.locator('td', { hasText: 'Team <i>channel</i>' }).count()).toBe(1);
        expect(await page.locator('main i').count()).toBe(0);
        await submitJson(t.form, { email: 'ada@example.com', message: '<!channel> hi' });
        const [message] = await slack.waitFor(1, 30_000);
        expect(JSON.parse(message!.body).blocks[0].type).toBe('header');
        expect(message!.body).toContain('&lt;!channel&gt; hi');
        await shot(page, '07-slack-added');
      } finally {
        await slack.close();
      }
      await page.close();

      expect(browser.cspViolations).toEqual([]);
    },
  );
});
