import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswer, type FormView } from '../support/api-client';
import {
  launchWatchedChromium,
  readmeShot,
  signInWith,
  type WatchedChromium,
} from '../support/dashboard-browser';
import { useTestStack } from '../support/fixture';
import { withoutReceipt } from '../support/ingest-requests';
import { onlySubmission } from '../support/stored-submissions';

// CAPTCHA in a real Chromium (docs/captcha.md): the dashboard's CAPTCHA settings of a form
// (screenshotted into test/artifacts/), and a customer's page on ANOTHER origin holding the
// pasted embed_html of a form with ALTCHA: the widget loads from the ingest server, fetches a
// challenge cross-origin, solves it in the browser, and the submission is stored.

const t = useTestStack();
let browser: WatchedChromium;
let site: http.Server;
let siteUrl: string;
const pages = new Map<string, string>();

beforeAll(async () => {
  browser = await launchWatchedChromium();
  site = http.createServer((req, res) => {
    const html = pages.get(req.url ?? '');
    res.writeHead(html ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(html ?? 'not found');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
});

const shot = (page: Page, name: string) => browser.shot(page, name);
const submit = (page: Page, selector: string) =>
  Promise.all([page.waitForURL(/.*/), page.waitForEvent('framenavigated'), page.click(selector)]);

async function readForm(id: string): Promise<FormView> {
  return expectAnswer(await t.api.get(`/api/forms/${id}`), 'GET /api/forms/{id}', 200).form;
}

describe('CAPTCHA in a browser', () => {
  it(
    'the dashboard sets a form’s CAPTCHA; the secret is write-only',
    { timeout: 120_000 },
    async () => {
      const form = await t.api.createForm({ name: 'Captcha settings' });
      const page = await browser.context.newPage();
      browser.watch(page);
      try {
        await signInWith(page, t.stack.url, t);
        await page.goto(`${t.stack.url}/app/forms/${form.id}/spam`);
        expect(await page.textContent('#captcha-settings')).toContain('Save CAPTCHA');
        await page.selectOption('#captcha-settings select[name="provider"]', 'turnstile');
        await page.fill('#captcha-settings input[name="site_key"]', '0x4AAAAAAAdashboard');
        await page.fill('#captcha-settings input[name="secret"]', 'dashboard-secret-123');
        await shot(page, 'captcha-01-turnstile');
        await submit(page, '#captcha-settings button[type="submit"]');
        expect(page.url()).toBe(`${t.stack.url}/app/forms/${form.id}/spam`);
        expect(await page.textContent('.flash')).toContain('CAPTCHA saved');
        const html = await page.content();
        expect(html).not.toContain('dashboard-secret-123');
        expect(await page.inputValue('#captcha-settings input[name="secret"]')).toBe('');
        expect(await page.textContent('#captcha-settings')).toContain('secret set');
        await shot(page, 'captcha-02-secret-set');
        await readmeShot(page, 'form-settings-captcha-autoresponse-retention', true);
        // The embed code (the Share section) has the widget now.
        await submit(page, 'nav.form-sections a:text("Share")');
        expect(await page.textContent('#embed-html')).toContain(
          'data-sitekey="0x4AAAAAAAdashboard"',
        );
        expect((await readForm(form.id)).captcha).toEqual({
          provider: 'turnstile',
          site_key: '0x4AAAAAAAdashboard',
          secret_set: true,
        });

        // Switching provider without a secret is refused, and says why.
        await submit(page, 'nav.form-sections a:text("Spam and CAPTCHA")');
        await page.selectOption('#captcha-settings select[name="provider"]', 'hcaptcha');
        await submit(page, '#captcha-settings button[type="submit"]');
        expect(await page.textContent('[role="alert"]')).toMatch(/captcha\.secret: required/);
        await shot(page, 'captcha-03-refused');
        expect((await readForm(form.id)).captcha?.provider).toBe('turnstile');

        // ALTCHA needs no keys.
        await page.goto(`${t.stack.url}/app/forms/${form.id}/spam`);
        await page.selectOption('#captcha-settings select[name="provider"]', 'altcha');
        await submit(page, '#captcha-settings button[type="submit"]');
        expect((await readForm(form.id)).captcha).toEqual({ provider: 'altcha' });
        await shot(page, 'captcha-04-altcha');
        expect(browser.cspViolations).toEqual([]);
      } finally {
        await page.close();
      }
    },
  );

  it(
    'a pasted form with ALTCHA on another origin is solved and stored',
    { timeout: 150_000 },
    async () => {
      const form = await t.api.createForm({
        name: 'Pasted ALTCHA',
        captcha: { provider: 'altcha' },
      });
      pages.set(
        '/contact',
        `<!doctype html><html><head><meta charset="utf-8"><title>Contact us</title></head>
<body><h1>Contact us</h1>
${form.embed_html}
</body></html>`,
      );
      const values = {
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        message: 'Proof of work done',
      };
      const page = await browser.context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        await page.goto(`${siteUrl}/contact`);
        await page.fill('input[name="name"]', values.name);
        await page.fill('input[name="email"]', values.email);
        await page.fill('textarea[name="message"]', values.message);
        await page.locator('altcha-widget label').first().click();
        const deadline = Date.now() + 120_000;
        while (!(await page.inputValue('input[name="altcha"]'))) {
          if (Date.now() > deadline)
            throw new Error('the ALTCHA widget did not solve its challenge');
          await page.waitForTimeout(100);
        }
        await page.screenshot({ path: `${__dirname}/../artifacts/captcha-altcha-pasted.png` });
        await readmeShot(page, 'altcha-pasted-form');
        const thanksUrl = `${t.stack.url}/f/${form.endpoint_token}/thanks`;
        const landed = (url: URL) => withoutReceipt(url.href) === thanksUrl;
        await Promise.all([page.waitForURL(landed), page.click('button[type="submit"]')]);
        expect(await page.textContent('h1')).toMatch(/Thank you/);
        const stored = await onlySubmission(t.stack, form.id);
        expect(stored.payload_json).toEqual(values);
        expect(stored.is_spam).toBe(false);
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    },
  );

  it(
    'the form script adds ALTCHA to a form pasted without it and sends inline',
    { timeout: 150_000 },
    async () => {
      // Pasted before the CAPTCHA was turned on: no widget in the markup, only the form script.
      const before = await t.api.createForm({ name: 'Scripted ALTCHA' });
      const res = await t.api.patch(`/api/forms/${before.id}`, { captcha: { provider: 'altcha' } });
      expect(res.status, res.text).toBe(200);
      expect(before.embed_html).not.toContain('altcha');
      pages.set(
        '/scripted',
        `<!doctype html><html><head><meta charset="utf-8"><title>Contact us</title></head>
<body><h1>Contact us</h1>
${before.embed_html}
<script src="${before.autocomplete_script_url}" async></script>
</body></html>`,
      );
      const values = { name: 'Grace Hopper', email: 'grace@example.com', message: 'Inline' };
      const page = await browser.context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        await page.goto(`${siteUrl}/scripted`);
        await page.fill('input[name="name"]', values.name);
        await page.fill('input[name="email"]', values.email);
        await page.fill('textarea[name="message"]', values.message);
        await page.locator('altcha-widget label').first().click({ timeout: 30_000 });
        const deadline = Date.now() + 120_000;
        while (!(await page.inputValue('input[name="altcha"]'))) {
          if (Date.now() > deadline)
            throw new Error('the ALTCHA widget did not solve its challenge');
          await page.waitForTimeout(100);
        }
        await page.click('button[type="submit"]');
        const status = page.locator('[data-formward-status]');
        await status.filter({ hasText: 'Thank you' }).waitFor({ timeout: 20_000 });
        expect(page.url()).toBe(`${siteUrl}/scripted`);
        const stored = await onlySubmission(t.stack, before.id);
        expect(stored.payload_json).toEqual(values);
        // The answer used the challenge up: the widget is reset for a next submission.
        expect(await page.inputValue('input[name="altcha"]').catch(() => '')).toBe('');
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    },
  );
});
