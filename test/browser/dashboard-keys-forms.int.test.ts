import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectAnswer, request } from '../support/api-client';
import {
  launchWatchedChromium,
  signInWith,
  type WatchedChromium,
} from '../support/dashboard-browser';
import { useTestStack } from '../support/fixture';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';

// The keys and forms pages in a real Chromium: create an Admin key and copy it (the copy
// button puts it on the clipboard), call the API with it, revoke it; create a form, copy its
// embed snippet, a refused edit, a saved one, a test submission delivered to a local HTTPS
// receiver, and deletion after the confirmation page. Every page is screenshotted into
// test/artifacts/, and no page may report a Content-Security-Policy violation.

const t = useTestStack({ worker: true, env: { WEBHOOK_ALLOW_PRIVATE: '127.0.0.1' } });
let browser: WatchedChromium;
let receiver: HttpsReceiver;

beforeAll(async () => {
  receiver = await startHttpsReceiver(inject('stack').certificates);
  browser = await launchWatchedChromium();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: t.stack.url,
  });
});
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
});

const shot = (page: Page, name: string) => browser.shot(page, name);
const clipboard = (page: Page) => page.evaluate('navigator.clipboard.readText()');

/** Clicks a submit button and waits for the page the form leads to. */
const submit = (page: Page, selector: string) =>
  Promise.all([
    page.waitForLoadState('load'),
    page.waitForEvent('framenavigated'),
    page.click(selector),
  ]);

describe('keys and forms in a browser', () => {
  it(
    'create, copy, use and revoke a key; create, embed, edit, test and delete a form',
    { timeout: 180_000 },
    async () => {
      const page = await browser.context.newPage();
      browser.watch(page);
      await signInWith(page, t.stack.url, t);
      expect(page.url()).toBe(`${t.stack.url}/app`);

      // An Admin key, shown once; the copy button puts it on the clipboard.
      await page.click('nav a[href="/app/keys"]');
      await page.fill('input[name="name"]', 'Browser key');
      await page.check('input[name="role"][value="admin"]');
      await shot(page, 'keys-01-create');
      await submit(page, 'form[action="/app/keys"] button[type="submit"]');
      const key = (await page.textContent('#new-key'))!;
      expect(key).toMatch(/^frk_/);
      await page.click('button[data-copy-target="new-key"]');
      await expect
        .poll(() => page.textContent('button[data-copy-target="new-key"]'))
        .toBe('Copied');
      expect(await clipboard(page)).toBe(key);
      await shot(page, 'keys-02-created');
      const api = await request('GET', `${t.stack.url}/api/forms`, { key });
      expect(api.status).toBe(200);

      // Revoke: the API refuses the key at once.
      await page.goto(`${t.stack.url}/app/keys`);
      expect(await page.locator('table.keys tr', { hasText: 'Browser key' }).count()).toBe(1);
      await shot(page, 'keys-03-list');
      await submit(page, 'tr:has-text("Browser key") form button');
      expect(await page.textContent('[role="status"]')).toContain('revoked');
      expect((await request('GET', `${t.stack.url}/api/forms`, { key })).status).toBe(401);

      // A new form, with markup in its name shown as text.
      await page.click('nav a[href="/app/forms"]');
      await page.click('a[href="/app/forms/new"]');
      await page.fill('input[name="name"]', 'Contact <b>us</b>');
      await shot(page, 'forms-01-new');
      await submit(page, 'form[action="/app/forms"] button[type="submit"]');
      expect(await page.textContent('h1')).toBe('Contact <b>us</b>');
      expect(await page.locator('main h1 b').count()).toBe(0);
      const formId = /\/app\/forms\/(\d+)$/.exec(page.url())![1]!;
      const read = await t.api.get(`/api/forms/${formId}`);
      const { form } = expectAnswer(read, 'GET /api/forms/{id}', 200);
      await page.click('button[data-copy-target="embed-html"]');
      await expect.poll(() => clipboard(page)).toBe(form.embed_html);
      await shot(page, 'forms-02-form');

      // A refused edit shows the error next to its field; a good one is saved.
      await submit(page, 'nav.form-sections a:text("Settings")');
      await page.fill('input[name="success_redirect_url"]', 'ftp://example.com/');
      await submit(page, `form[action="/app/forms/${formId}"] button[type="submit"]`);
      expect(await page.textContent('.field-error')).toBe('must be an http:// or https:// URL');
      await shot(page, 'forms-03-refused-edit');
      await page.fill('input[name="success_redirect_url"]', 'https://example.com/thanks');
      await page.fill('textarea[name="allowed_domains"]', 'example.com');
      await submit(page, `form[action="/app/forms/${formId}"] button[type="submit"]`);
      expect(await page.textContent('[role="status"]')).toContain('saved');
      const reread = await t.api.get(`/api/forms/${formId}`);
      const saved = expectAnswer(reread, 'GET /api/forms/{id}', 200).form;
      expect(saved).toMatchObject({
        success_redirect_url: 'https://example.com/thanks',
        allowed_domains: ['example.com'],
      });

      // Limits: a refused date shown at its input, then a count and a hostile closed message.
      await page.fill('input[name="max_submissions"]', '50');
      await page.fill('input[name="closes_at"]', 'next friday');
      await page.fill('textarea[name="closed_message"]', 'Sold out <b>sorry</b>');
      await submit(page, `form[action="/app/forms/${formId}"] button[type="submit"]`);
      expect(await page.locator('input[name="closes_at"][aria-invalid="true"]').count()).toBe(1);
      expect(await page.inputValue('textarea[name="closed_message"]')).toBe(
        'Sold out <b>sorry</b>',
      );
      await shot(page, 'forms-03b-limits-refused');
      await page.fill('input[name="closes_at"]', '2031-02-28T17:00:00Z');
      await submit(page, `form[action="/app/forms/${formId}"] button[type="submit"]`);
      expect(await page.textContent('[role="status"]')).toContain('saved');
      expect(await page.locator('fieldset b').count()).toBe(0);
      await shot(page, 'forms-03c-limits-saved');
      const limited = expectAnswer(
        await t.api.get(`/api/forms/${formId}`),
        'GET /api/forms/{id}',
        200,
      );
      expect(limited.form).toMatchObject({
        limits: {
          max_submissions: 50,
          closes_at: '2031-02-28T17:00:00.000Z',
          closed_message: 'Sold out <b>sorry</b>',
        },
        open: true,
      });

      // A test submission, delivered to the local receiver.
      await t.api.addWebhook(formId, receiver.url);
      await submit(page, 'nav.form-sections a:text("Overview")');
      await submit(page, `form[action="/app/forms/${formId}/test"] button`);
      expect(await page.textContent('table.deliveries tbody')).toContain('delivered');
      expect(receiver.received).toHaveLength(1);
      await shot(page, 'forms-04-test-submission');

      // The list shows the test submission; delete after the confirmation.
      await page.goto(`${t.stack.url}/app/forms`);
      await shot(page, 'forms-05-list');
      await page.goto(`${t.stack.url}/app/forms/${formId}`);
      await submit(page, 'nav.form-sections a:text("Danger zone")');
      await page.click(`a[href="/app/forms/${formId}/delete"]`);
      expect(await page.textContent('main [role="alert"]')).toContain(
        'its 1 submission and 0 spam',
      );
      await shot(page, 'forms-06-delete');
      await submit(page, `form[action="/app/forms/${formId}/delete"] button`);
      expect(page.url()).toBe(`${t.stack.url}/app/forms`);
      expect(await page.textContent('[role="status"]')).toContain('deleted');
      expect((await t.api.get(`/api/forms/${formId}`)).status).toBe(404);
      await page.close();

      expect(browser.cspViolations).toEqual([]);
    },
  );
});
