import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswer } from '../support/api-client';
import {
  launchWatchedChromium,
  readmeShot,
  signInWith,
  type WatchedChromium,
} from '../support/dashboard-browser';
import { useTestStack } from '../support/fixture';

// The field builder of a form's dashboard page in a real Chromium (forms/form-builder-pages.ts):
// fields added, refused with the problem beside its input, moved and removed through htmx
// swaps (no page load, the CSRF header sent); Edit and Cancel pushing their address and Back
// restoring it; a server error left unswapped; the page's settings with the contrast
// refusal; the Share section's link and QR code; axe-core finds no WCAG 2.2 AA violation in
// the builder; no CSP violation.

const t = useTestStack({ form: { name: 'Built in a browser' } });
let browser: WatchedChromium;

beforeAll(async () => {
  browser = await launchWatchedChromium();
});
afterAll(async () => {
  await browser?.close();
});

const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const storedForm = async () =>
  expectAnswer(await t.api.get(`/api/forms/${t.form.id}`), 'GET /api/forms/{id}', 200).form;

/** A failed answer that a careless swap would show: it has the builder's id. */
const BROKEN = '<!doctype html><title>Broken</title><div id="field-builder">Something broke</div>';

/** Page code (through the DevTools protocol): resolves when htmx's next request is over. */
const REQUEST_FINISHED = `new Promise((resolve) =>
  document.addEventListener('htmx:finally:request', () => setTimeout(resolve), { once: true }))`;

const row = (page: Page, label: string) => page.locator(`#fields tr:has(td:text-is("${label}"))`);

/** Fills the editor and adds the field; htmx swaps the builder in without a page load. */
async function addField(page: Page, values: { label: string; type?: string; options?: string }) {
  const editor = page.locator('#field-editor');
  await editor.locator('input[name="label"]').fill(values.label);
  await editor.locator('select[name="type"]').selectOption(values.type ?? 'text');
  if (values.options) await editor.locator('textarea[name="options"]').fill(values.options);
  await editor.locator('button[type="submit"]').click();
}

/** The page's accessibility problems by axe-core within `selector` (WCAG 2.0 to 2.2, A and AA). */
async function axeViolations(page: Page, selector: string) {
  // Evaluated through the DevTools protocol: the dashboard's CSP allows no inline script.
  await page.evaluate(AXE_SOURCE);
  const run = `axe.run(${JSON.stringify(selector)}, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'] } })
    .then((r) => r.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.html) })))`;
  return page.evaluate(run) as Promise<{ id: string; nodes: string[] }[]>;
}

describe('the field builder in a browser', () => {
  it(
    'builds a form of a few fields, sets its page, shows the link and QR code; axe finds nothing',
    { timeout: 180_000 },
    async () => {
      const page = await browser.context.newPage();
      browser.watch(page);
      await page.setViewportSize({ width: 1100, height: 900 });
      await signInWith(page, t.stack.url, t);
      await page.goto(`${t.stack.url}/app/forms/${t.form.id}`);
      await page.click('nav.form-sections a:text("Fields and page")');
      const builder = `${t.stack.url}/app/forms/${t.form.id}/fields`;
      await page.waitForURL(builder);
      expect(await page.textContent('#preview')).toContain('it needs at least one field');
      // From here on every change is an htmx request swapped in place: no page loads.
      let loads = 0;
      page.on('load', () => loads++);
      const htmxPosts: { status: number; csrf: string | undefined }[] = [];
      page.on('response', (answer) => {
        const request = answer.request();
        if (request.method() !== 'POST' || request.headers()['hx-request'] !== 'true') return;
        htmxPosts.push({ status: answer.status(), csrf: request.headers()['x-csrf-token'] });
      });

      await addField(page, { label: 'Your name' });
      await row(page, 'Your name').waitFor();
      await addField(page, { label: 'E-mail', type: 'email' });
      await row(page, 'E-mail').waitFor();
      // A drop-down without options is refused beside its input; the values stay.
      await addField(page, { label: 'Topic', type: 'select' });
      const refusal = page.locator('#field-error-options');
      await refusal.waitFor();
      expect(await refusal.textContent()).toBe('are required for a select field');
      expect(await page.inputValue('#field-editor input[name="label"]')).toBe('Topic');
      expect(
        await page.getAttribute('#field-editor textarea[name="options"]', 'aria-invalid'),
      ).toBe('true');
      await page.fill('#field-editor textarea[name="options"]', 'Sales\nSupport');
      await page.click('#field-editor button[type="submit"]');
      await row(page, 'Topic').waitFor();
      await addField(page, { label: 'Scratch' });
      await row(page, 'Scratch').waitFor();

      // Topic moves above E-mail; Scratch goes.
      await row(page, 'Topic').locator('button[value="up"]').click();
      await expect
        .poll(() => page.locator('#fields tbody tr td:first-child').allTextContents())
        .toEqual(['Your name', 'Topic', 'E-mail', 'Scratch']);
      await row(page, 'Scratch').locator('button[value="remove"]').click();
      await row(page, 'Scratch').waitFor({ state: 'detached' });
      expect((await storedForm()).fields).toEqual([
        { name: 'your_name', label: 'Your name', type: 'text', required: false },
        {
          name: 'topic',
          label: 'Topic',
          type: 'select',
          required: false,
          options: ['Sales', 'Support'],
        },
        { name: 'e_mail', label: 'E-mail', type: 'email', required: false },
      ]);
      // Everything above happened in place: the address is still the builder's, nothing
      // loaded, every post carried the page's CSRF header and the refusal (422) was swapped.
      expect(page.url()).toBe(builder);
      expect(loads).toBe(0);
      const csrf = (await page.getAttribute('meta[name="csrf-token"]', 'content')) ?? undefined;
      expect(htmxPosts).toEqual(
        [200, 200, 422, 200, 200, 200, 200].map((status) => ({ status, csrf })),
      );

      // Edit and Cancel swap the editor in and push their address; Back brings the edit back.
      const heading = (text: string) => page.locator(`#field-editor-heading:text-is("${text}")`);
      await row(page, 'Topic').locator('a:text("Edit")').click();
      await heading('Edit the field “topic”').waitFor();
      expect(page.url()).toBe(`${builder}?edit=topic`);
      expect(await page.inputValue('#field-editor input[name="label"]')).toBe('Topic');
      await page.click('#field-editor a:text("Cancel")');
      await heading('Add a field').waitFor();
      expect(page.url()).toBe(builder);
      await page.goBack();
      await heading('Edit the field “topic”').waitFor();
      expect(page.url()).toBe(`${builder}?edit=topic`);
      await page.click('#field-editor a:text("Cancel")');
      await heading('Add a field').waitFor();
      expect(page.url()).toBe(builder);

      // An answer that is neither a success nor a refusal (here a 500) is not swapped in:
      // the builder stays as it was, with what was typed.
      await page.route(builder, (route) => route.fulfill({ status: 500, body: BROKEN }), {
        times: 1,
      });
      const finished = page.evaluate(REQUEST_FINISHED);
      await addField(page, { label: 'Not saved' });
      await finished;
      expect(await page.inputValue('#field-editor input[name="label"]')).toBe('Not saved');
      expect(await page.textContent('body')).not.toContain('Something broke');
      expect(htmxPosts.at(-1)?.status).toBe(500);
      expect(loads).toBe(0);

      // The page: a pale accent colour is refused with a darker suggestion, then saved.
      const settings = page.locator('#page-settings');
      await settings.locator('input[name="title"]').fill('Write to us');
      await settings
        .locator('textarea[name="description"]')
        .fill('We answer within a day.\n\nOr call us.');
      await settings.locator('input[name="accent_color"]').fill('#ffcc00');
      await settings.locator('button:text("Save the page")').click();
      const colourError = page.locator('#page-error-accent_color');
      await colourError.waitFor();
      expect(await colourError.textContent()).toMatch(/contrast with white is 1\.\d\d:1/);
      await page.fill('#page-settings input[name="accent_color"]', '#2450c8');
      await page.click('#page-settings button:text("Save the page")');
      await page.locator('#preview a:text("Open the page")').waitFor();
      const stored = await storedForm();
      expect(stored.page).toMatchObject({ title: 'Write to us', accent_color: '#2450c8' });
      expect(await page.textContent('#preview .preview-title')).toBe('Write to us');

      expect(await axeViolations(page, '#field-builder')).toEqual([]);
      await browser.shot(page, 'form-builder');
      await readmeShot(page, 'form-builder', true);

      // Share: the page's link and its QR code, which the browser draws.
      await page.click('nav.form-sections a:text("Share")');
      await page.waitForURL(`${t.stack.url}/app/forms/${t.form.id}/share`);
      expect(await page.textContent('#page-url')).toBe(stored.page_url);
      const drawnWidth = "document.querySelector('figure.qr img').naturalWidth";
      await expect.poll(() => page.evaluate(drawnWidth) as Promise<number>).toBeGreaterThan(0);
      expect(await page.getAttribute('figure.qr a', 'href')).toBe(
        `/app/forms/${t.form.id}/qr.svg?download=1`,
      );
      expect(await axeViolations(page, '#page-link')).toEqual([]);
      await browser.shot(page, 'form-share');
      await page.close();

      expect(browser.cspViolations).toEqual([]);
    },
  );
});
