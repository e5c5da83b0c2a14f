import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MIN_FILL_MS } from '../../src/domain/spam/fill-time';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { expectAnswer, request } from '../support/api-client';
import {
  ARTIFACTS,
  fillSignUp,
  launchWatchedChromium,
  linkFromMail,
  signInWith,
  type WatchedChromium,
} from '../support/dashboard-browser';
import { useTestStack } from '../support/fixture';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';

// A new person's whole journey in one real Chromium: sign up (ALTCHA solved in the browser),
// confirm through the e-mail a real SMTP sink caught, sign in, create a form, paste its embed
// snippet into a page of their own and submit it there, find the submission by search, export
// CSV, create an Admin key and call the API with it, add a webhook to a local HTTPS receiver
// and watch deliveries succeed, fail and succeed again after a replay. Every page is
// screenshotted into test/artifacts/journey/; with UPDATE_SCREENSHOTS=1 (`npm run
// screenshots`) a chosen few also go to docs/screenshots/ for the README.

const JOURNEY_SHOTS = path.join(ARTIFACTS, 'journey');
const README_SHOTS = path.resolve(__dirname, '../../docs/screenshots');
const UPDATE_README_SHOTS = process.env.UPDATE_SCREENSHOTS === '1';

let sink: SmtpSink;
let failing = false;
let receiver: HttpsReceiver;
let site: http.Server;
let siteUrl: string;
let sitePage = '';

beforeAll(async () => {
  sink = await startSmtpSink();
  receiver = await startHttpsReceiver(inject('stack').certificates, () =>
    failing ? { status: 503, body: 'receiver down for maintenance' } : { status: 200 },
  );
  // The person's own website, on another origin, with the embed snippet pasted in.
  site = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(sitePage);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/contact`;
});
afterAll(async () => {
  await new Promise((resolve) => site?.close(resolve));
  await receiver?.close();
  await sink?.close();
});

const t = useTestStack(() => ({
  worker: true,
  env: {
    SMTP_URL: sink.url(),
    WEBHOOK_ALLOW_PRIVATE: '127.0.0.1',
    // Small retry timings, as the delivery tests use: four attempts within seconds.
    WEBHOOK_RETRY_INITIAL_INTERVAL: '1s',
    WEBHOOK_RETRY_BACKOFF_COEFFICIENT: '1',
  },
}));

let browser: WatchedChromium;
beforeAll(async () => {
  fs.rmSync(JOURNEY_SHOTS, { recursive: true, force: true });
  fs.mkdirSync(JOURNEY_SHOTS, { recursive: true });
  if (UPDATE_README_SHOTS) fs.mkdirSync(README_SHOTS, { recursive: true });
  browser = await launchWatchedChromium();
});
afterAll(async () => {
  await browser?.close();
});

let shots = 0;
/** A README screenshot: its file name in docs/screenshots/ and, if not the page's top, what to scroll to. */
type ReadmeShot = { file: string; scrollTo?: string };

/**
 * A full-page screenshot, test/artifacts/journey/NN-name.png; with UPDATE_SCREENSHOTS=1 also
 * the viewport (1280x800) as docs/screenshots/<file>.png.
 */
async function shot(page: Page, name: string, readme?: ReadmeShot): Promise<void> {
  shots += 1;
  const file = `${String(shots).padStart(2, '0')}-${name}.png`;
  await page.screenshot({ path: path.join(JOURNEY_SHOTS, file), fullPage: true });
  if (!readme || !UPDATE_README_SHOTS) return;
  if (readme.scrollTo) {
    await page.evaluate(
      `document.querySelector(${JSON.stringify(readme.scrollTo)}).scrollIntoView()`,
    );
  }
  await page.screenshot({ path: path.join(README_SHOTS, `${readme.file}.png`) });
}

/** Clicks and waits for the page it leads to (once it has begun to load, its `load` event). */
async function clickAndLoad(page: Page, selector: string): Promise<void> {
  await Promise.all([page.waitForEvent('framenavigated'), page.click(selector)]);
  await page.waitForLoadState('load');
}

/** Fills in the embedded form on the person's own page and sends it, landing on the thank-you page. */
async function submitOnSite(page: Page, values: { name: string; email: string; message: string }) {
  await page.goto(siteUrl);
  const loadedAt = Date.now();
  await page.fill('input[name="name"]', values.name);
  await page.fill('input[name="email"]', values.email);
  await page.fill('textarea[name="message"]', values.message);
  // A person takes a few seconds; a form sent sooner after its page loaded is spam (too_fast).
  await page.waitForTimeout(MIN_FILL_MS + 500 - (Date.now() - loadedAt));
  // The thank-you URL carries the submission's receipt (docs/receipts.md).
  await Promise.all([
    page.waitForURL(/\/thanks\?receipt=[\w.-]+$/),
    page.click('button[type="submit"]'),
  ]);
  expect(await page.textContent('h1')).toMatch(/Thank you/);
}

/** Searches all submissions for `q`; returns the id of the one match. */
async function findSubmission(page: Page, q: string): Promise<string> {
  await page.goto(`${t.stack.url}/app/submissions`);
  await page.fill('input[name="q"]', q);
  await page.selectOption('select[name="range"]', 'all');
  await clickAndLoad(page, 'form[role="search"] button');
  const links = page.locator('table.submissions a[href^="/app/submissions/"]');
  expect(await links.count()).toBe(1);
  return /\/app\/submissions\/(\d+)$/.exec((await links.getAttribute('href'))!)![1]!;
}

/** Reloads the page (as a person waiting does) until `selector` matches `count` rows. */
async function reloadUntil(page: Page, selector: string, count: number): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.locator(selector).count();
      },
      { timeout: 60_000, interval: 1_000 },
    )
    .toBe(count);
}

describe('a new person’s journey through the dashboard', () => {
  it(
    'sign up, confirm, form, embed, search, export, key, webhook, failures, replay',
    { timeout: 300_000 },
    async () => {
      const email = `journey-${Date.now()}@example.com`;
      const password = 'a journey of a thousand forms';
      const page = await browser.context.newPage();
      await page.setViewportSize({ width: 1280, height: 800 });
      browser.watch(page);

      // 1. Sign up: the ALTCHA widget fetches a challenge and solves it in its worker.
      await fillSignUp(page, t.stack.url, { name: 'Journey Ltd', email, password });
      await shot(page, 'signup');
      const mails = sink.messages.length;
      await clickAndLoad(page, 'form button[type="submit"]');
      expect(await page.textContent('h1')).toBe('Check your e-mail');
      await shot(page, 'check-email');

      // 2. Confirm through the link in the e-mail.
      await page.goto(await linkFromMail(sink, email, '/confirm?token=', mails));
      expect(page.url()).toBe(`${t.stack.url}/login`);
      expect(await page.textContent('[role="status"]')).toContain('confirmed');
      await shot(page, 'confirmed');

      // 3. Sign in.
      await signInWith(page, t.stack.url, { email, password });
      expect(await page.textContent('h1')).toBe('Journey Ltd');
      await shot(page, 'overview');

      // 4. Create a form.
      await clickAndLoad(page, 'nav a[href="/app/forms"]');
      await clickAndLoad(page, 'a[href="/app/forms/new"]');
      await page.fill('input[name="name"]', 'Website contact');
      await shot(page, 'form-new');
      await clickAndLoad(page, 'form[action="/app/forms"] button[type="submit"]');
      expect(await page.textContent('h1')).toBe('Website contact');
      const formUrl = page.url();
      const formId = /\/app\/forms\/(\d+)$/.exec(formUrl)![1]!;
      await shot(page, 'form', { file: 'form-embed', scrollTo: 'section:has(#embed-html)' });

      // 5. Copy the embed snippet from the form page into a page of one's own and submit it.
      const snippet = (await page.textContent('#embed-html'))!;
      expect(snippet).toContain('<form');
      sitePage = `<!doctype html><html><head><meta charset="utf-8"><title>Contact</title></head>
<body><h1>Write to us</h1>
${snippet}
</body></html>`;
      await page.goto(siteUrl);
      await shot(page, 'own-site');
      await submitOnSite(page, {
        name: 'Grace Hopper',
        email: 'grace@example.com',
        message: 'Found a moth in relay seventy',
      });
      await shot(page, 'thanks');

      // The forms list now counts it.
      await page.goto(`${t.stack.url}/app/forms`);
      expect(await page.textContent('main')).toContain('Website contact');
      await shot(page, 'forms', { file: 'forms' });

      // 6. Find it by search.
      const first = await findSubmission(page, 'moth');
      expect(await page.textContent('td.summary')).toContain('Found a moth in relay seventy');
      await shot(page, 'search', { file: 'submissions-search' });
      await clickAndLoad(page, `a[href="/app/submissions/${first}"]`);
      expect(await page.locator('table.fields th').allTextContents()).toEqual(
        expect.arrayContaining(['name', 'email', 'message']),
      );
      await shot(page, 'submission', { file: 'submission' });

      // 7. Export CSV: a real download, its rows checked.
      await page.goto(`${t.stack.url}/app/forms/${formId}/submissions?range=all`);
      await clickAndLoad(page, 'a:text("Export these submissions")');
      await shot(page, 'export');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.click('a:text("Download CSV")'),
      ]);
      const csv = fs
        .readFileSync((await download.path())!, 'utf8')
        .trim()
        .split(/\r?\n/);
      expect(csv).toHaveLength(2);
      for (const column of ['name', 'email', 'message']) expect(csv[0]).toContain(column);
      expect(csv[1]).toContain('grace@example.com');
      expect(csv[1]).toContain('Found a moth in relay seventy');
      expect(csv[1]).toContain('Grace Hopper');

      // 8. An Admin key, read from the page, used against the API.
      await clickAndLoad(page, 'nav a[href="/app/keys"]');
      await page.fill('input[name="name"]', 'Journey key');
      await page.check('input[name="role"][value="admin"]');
      await clickAndLoad(page, 'form[action="/app/keys"] button[type="submit"]');
      const key = (await page.textContent('#new-key'))!;
      expect(key).toMatch(/^frk_/);
      await shot(page, 'key-created');
      const forms = await request('GET', `${t.stack.url}/api/forms`, { key });
      const list = expectAnswer(forms, 'GET /api/forms', 200);
      expect(list.forms.map((form) => form.id)).toEqual([formId]);

      // 9. A webhook to the local HTTPS receiver; a submission is delivered.
      await page.goto(`${formUrl}/plugins`);
      await page.fill('#add-webhook input[name="url"]', `${receiver.url}/hooks/formward`);
      await page.fill('#add-webhook input[name="name"]', 'Our CRM');
      await clickAndLoad(page, '#add-webhook button');
      expect(await page.textContent('#signing-secret')).toMatch(/^whsec_/);
      await shot(page, 'webhook-created', { file: 'webhooks' });
      await submitOnSite(page, {
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        message: 'Note G on Bernoulli numbers',
      });
      await page.goto(`${formUrl}/plugins`);
      await clickAndLoad(page, 'a[href$="/deliveries"]');
      await reloadUntil(page, 'tr.status-succeeded', 1);
      expect(receiver.received.at(-1)!.body).toContain('Note G on Bernoulli numbers');
      await shot(page, 'webhook-deliveries');

      // 10. The receiver fails: four attempts, retried a second apart, all fail.
      failing = true;
      await submitOnSite(page, {
        name: 'Alan Turing',
        email: 'alan@example.com',
        message: 'On computable numbers',
      });
      const failed = await findSubmission(page, 'computable');
      await clickAndLoad(page, `a[href="/app/submissions/${failed}"]`);
      await clickAndLoad(page, 'a:text("Delivery log")');
      // Each attempt that will be retried is recorded as pending_retry; the last one failed.
      await reloadUntil(page, 'tr.status-failed', 1);
      expect(await page.locator('tr.status-pending_retry').count()).toBe(3);
      await shot(page, 'failed-attempts');

      // 11. The receiver answers 2xx again: replay from the dashboard, see success.
      failing = false;
      await clickAndLoad(page, 'form[action$="/replay"] button');
      expect(await page.textContent('[role="status"]')).toContain('Replay started');
      await reloadUntil(page, 'tr.status-succeeded', 1);
      expect(await page.locator('tr.status-succeeded .tag').textContent()).toBe('replay');
      expect(await page.locator('tr.status-failed, tr.status-pending_retry').count()).toBe(4);
      await shot(page, 'replayed', { file: 'delivery-log' });

      // The form's stats, drawn as charts.
      await page.goto(`${formUrl}/stats`);
      await expect.poll(() => page.locator('#stats-charts .uplot canvas').count()).toBe(3);
      await shot(page, 'stats', {
        file: 'stats',
        scrollTo: 'h2:has(+ section.cards + #stats-charts)',
      });
      await page.close();

      expect(browser.cspViolations).toEqual([]);
    },
  );
});
