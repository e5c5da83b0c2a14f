import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswer } from '../support/api-client';
import {
  launchWatchedChromium,
  signInWith,
  type WatchedChromium,
} from '../support/dashboard-browser';
import { useTestStack } from '../support/fixture';

// The autoresponse section of a form's settings page in a real Chromium (docs/autoresponse.md):
// a preview with sample values that changes nothing, its text shown escaped (plain text, not
// markup), a refused save with the error next to its field, a saved one that the API shows, and
// unticking removes it. Screenshots in test/artifacts/; no Content-Security-Policy violation.

const t = useTestStack({ form: { name: 'Support <b>desk</b>' } });
let browser: WatchedChromium;

beforeAll(async () => {
  browser = await launchWatchedChromium();
});
afterAll(async () => {
  await browser?.close();
});

const submit = (page: Page, selector: string) =>
  Promise.all([
    page.waitForLoadState('load'),
    page.waitForEvent('framenavigated'),
    page.click(selector),
  ]);

const autoresponseOf = async () =>
  expectAnswer(await t.api.get(`/api/forms/${t.form.id}`), 'GET /api/forms/{id}', 200).form
    .autoresponse;

describe('the autoresponse settings in a browser', () => {
  it(
    'previews with sample values (escaped), refuses a Reply-To the API refuses, saves and removes',
    { timeout: 120_000 },
    async () => {
      const page = await browser.context.newPage();
      browser.watch(page);
      await signInWith(page, t.stack.url, t);
      await page.goto(`${t.stack.url}/app/forms/${t.form.id}/autoresponse`);
      const section = page.locator('section#autoresponse');
      expect(await section.locator('input[name="autoresponse_enabled"]').isChecked()).toBe(false);

      await section.locator('input[name="autoresponse_enabled"]').check();
      await section.locator('input[name="autoresponse_subject"]').fill('Thanks {name} — {form}');
      await section
        .locator('textarea[name="autoresponse_body"]')
        .fill(
          'Hi {name},\n<script>alert(1)</script>\nYou wrote: {field:message}\n{field:email}{nope}.',
        );
      await section.locator('input[name="autoresponse_reply_to"]').fill('help@desk.example');
      await submit(page, 'section#autoresponse button[value="preview"]');

      // The preview: sample values in the tags, the e-mail address sample left out, markup as text.
      const preview = page.locator('.autoresponse-preview');
      expect(await preview.locator('.preview-subject').textContent()).toBe(
        'Thanks Jane Doe — Support <b>desk</b>',
      );
      expect(await preview.locator('.preview-body').textContent()).toBe(
        'Hi Jane Doe,\n<script>alert(1)</script>\nYou wrote: Hello, I would like to know more.\n.',
      );
      expect(await preview.locator('b, script').count()).toBe(0);
      expect(await preview.textContent()).toContain('Reply-To: help@desk.example');
      // Previewing keeps what was typed and saves nothing.
      expect(await section.locator('input[name="autoresponse_reply_to"]').inputValue()).toBe(
        'help@desk.example',
      );
      expect(await autoresponseOf()).toBeNull();
      await section.scrollIntoViewIfNeeded();
      await browser.shot(page, 'autoresponse-preview');

      // A refused save: 422, the error next to the field, nothing stored.
      // The browser's own check lets it through; the API's schema (a domain with a dot) does not.
      await section.locator('input[name="autoresponse_reply_to"]').fill('help@localhost');
      await submit(page, 'section#autoresponse button[value="save"]');
      expect(await page.locator('section#autoresponse .field-error').textContent()).toContain(
        'must be an e-mail address',
      );
      expect(await autoresponseOf()).toBeNull();

      // Saved: the API shows it as given.
      await page
        .locator('section#autoresponse input[name="autoresponse_reply_to"]')
        .fill('help@desk.example');
      await submit(page, 'section#autoresponse button[value="save"]');
      expect(await page.textContent('[role="status"]')).toContain('Autoresponse saved');
      expect(await autoresponseOf()).toEqual({
        subject: 'Thanks {name} — {form}',
        body: 'Hi {name},\n<script>alert(1)</script>\nYou wrote: {field:message}\n{field:email}{nope}.',
        reply_to: 'help@desk.example',
      });
      await browser.shot(page, 'autoresponse-saved');

      // Unticked and saved: no autoresponse.
      await page.locator('section#autoresponse input[name="autoresponse_enabled"]').uncheck();
      await submit(page, 'section#autoresponse button[value="save"]');
      expect(await autoresponseOf()).toBeNull();
      expect(browser.cspViolations).toEqual([]);
    },
  );
});
