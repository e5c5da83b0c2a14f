import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FormView } from '../support/api-client';
import { runAxe, WCAG_TAGS } from '../support/axe';
import { useTestStack } from '../support/fixture';
import { usePageBrowser, sendForm as send } from '../support/page-browser';
import { HOSTILE, pageFormSettings, STORED_ANSWERS } from '../support/page-form';

// The hosted form page (docs/form-pages.md) in a real Chromium: axe-core finds no WCAG 2.2 AA
// violation at a phone's and a desktop's size, clean and after a refused post with hostile
// values; the form is filled and sent with JavaScript off and on, and with ALTCHA; no
// Content-Security-Policy violation anywhere. Screenshots go to SHOTS (and, with
// UPDATE_SCREENSHOTS=1, the README's to docs/screenshots/).

const t = useTestStack();
const SHOTS = path.join(os.tmpdir(), 'formward-form-page');
const README_IMAGES = path.resolve(__dirname, '../../docs/screenshots');

const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };

const { newPage, problems } = usePageBrowser();

beforeAll(() => {
  fs.mkdirSync(SHOTS, { recursive: true });
});

/** A screenshot into SHOTS, and with UPDATE_SCREENSHOTS=1 a copy for the README. */
async function shot(page: Page, name: string, readme?: string) {
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  if (readme && process.env.UPDATE_SCREENSHOTS === '1') {
    fs.mkdirSync(README_IMAGES, { recursive: true });
    // A phone's shot is its first screen, as a person sees it; a desktop's the whole page.
    const fullPage = page.viewportSize()!.width > 600;
    await page.screenshot({ path: path.join(README_IMAGES, `${readme}.png`), fullPage });
  }
}

async function expectNoAxeViolations(page: Page, what: string) {
  const result = await runAxe(page);
  fs.writeFileSync(path.join(SHOTS, `axe-${what}.json`), JSON.stringify(result, null, 2));
  console.log(
    `axe ${what}: ${result.rulesRun.length} rules run for ${WCAG_TAGS.join(', ')}; ` +
      `violations: ${result.violations.length}; incomplete: ${result.incomplete.join(', ') || 'none'}`,
  );
  expect(result.violations, what).toEqual([]);
  expect(result.rulesRun).toEqual(
    expect.arrayContaining(['label', 'color-contrast', 'target-size']),
  );
}

/** Every control and choice is at least 44px tall, and nothing scrolls sideways. */
async function expectTouchFriendly(page: Page, width: number) {
  const small = (await page.evaluate(`
    [...document.querySelectorAll('input:not([type=hidden]):not([type=radio]):not([type=checkbox]), select, textarea, button, label.choice, .check label')]
      .filter((el) => !el.closest('.hp'))
      .map((el) => [el.getAttribute('name') || el.textContent.trim(), el.getBoundingClientRect().height])
      .filter(([, height]) => height < 44)
  `)) as [string, number][];
  expect(small).toEqual([]);
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
}

async function fillValid(page: Page, options: { email: string }) {
  await page.fill('#f0', 'Ada Lovelace');
  await page.fill('#f1', options.email);
  await page.fill('#f2', 'Hello from the page');
  await page.fill('#f3', '3');
  await page.fill('#f4', '+44 20 7946 0000');
  await page.fill('#f5', 'https://example.com');
  await page.fill('#f6', '2027-01-15');
  await page.selectOption('#f7', 'Team');
  await page.selectOption('#f8', ['English', 'French']);
  await page.check('#f9-1');
  await page.check('#f10-1');
  await page.check('#f11');
  await attach(page);
}

const attach = (page: Page) =>
  page.setInputFiles('#f12', {
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('chosen in the browser'),
  });

async function storedSubmission(form: FormView) {
  const rows = await t.stack.sql<{
    payload_json: Record<string, unknown>;
    is_spam: boolean;
    fill_ms: number | null;
  }>('select payload_json, is_spam, fill_ms from submissions where form_id = ?', [form.id]);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

const expectStoredAnswers = (payload: Record<string, unknown>) => {
  const { attachment, ...rest } = payload;
  expect(rest).toEqual(STORED_ANSWERS);
  expect(attachment).toMatchObject({ filename: 'notes.txt', content_type: 'text/plain' });
};

describe('the hosted form page in Chromium', () => {
  it.each([
    ['phone', PHONE, 390],
    ['desktop', DESKTOP, 1280],
  ] as const)(
    '%s: no axe violation, clean and after a refused post with hostile values',
    { timeout: 120_000 },
    async (name, viewport, width) => {
      const form = await t.api.createForm(pageFormSettings());
      const page = await newPage(viewport);
      await page.goto(`${form.page_url}?utm_source=newsletter`);
      expect(await page.title()).toBe('Book a demo');
      await expectNoAxeViolations(page, `${name}-clean`);
      await expectTouchFriendly(page, width);
      await shot(page, `${name}-clean`, `form-page-${name}`);

      // As an old browser would send it: no client-side checks, straight to ingest.
      await page.evaluate(`document.querySelector('form').noValidate = true`);
      await page.fill('#f0', HOSTILE);
      await page.fill('#f1', `ada@${HOSTILE}`);
      await page.fill('#f2', `</textarea>${HOSTILE}`);
      await page.fill('#f3', '12');
      await page.check('#f10-0');
      const refused = await send(page);
      expect(refused.status()).toBe(422);
      expect(await page.title()).toBe('Error: Book a demo');
      const summary = page.locator('[role="alert"]');
      expect(await summary.textContent()).toContain(
        'E-mail address: must be a valid e-mail address',
      );
      expect(await page.locator('#f1-error').textContent()).toBe(
        'Error: must be a valid e-mail address',
      );
      // The first invalid control has the focus, without a script of ours.
      expect(await page.evaluate('document.activeElement.id')).toBe('f1');
      expect(await page.inputValue('#f0')).toBe(HOSTILE);
      expect(await page.inputValue('#f2')).toBe(`</textarea>${HOSTILE}`);
      expect(await page.isChecked('#f10-0')).toBe(true);
      expect(await page.getAttribute('input[name="utm_source"]', 'value')).toBe('newsletter');
      await expectNoAxeViolations(page, `${name}-errors`);
      await expectTouchFriendly(page, width);
      await shot(page, `${name}-errors`, name === 'phone' ? 'form-page-errors-phone' : undefined);
      expect(problems).toEqual([]);
    },
  );

  it(
    'without JavaScript: a refused post, corrected and sent, is stored',
    { timeout: 120_000 },
    async () => {
      const form = await t.api.createForm(pageFormSettings());
      const page = await newPage({ ...PHONE, javaScriptEnabled: false });
      await page.goto(`${form.page_url}?utm_source=newsletter`);
      // The browser lets "ada@example" through; ingest wants a domain with a dot.
      await fillValid(page, { email: 'ada@example' });
      const refused = await send(page);
      expect(refused.status()).toBe(422);
      expect(await page.textContent('#f1-error')).toContain('must be a valid e-mail address');
      expect(await page.inputValue('#f0')).toBe('Ada Lovelace');
      expect(await page.textContent('#f12-help')).toContain('choose them again');
      await page.fill('#f1', 'ada@example.com');
      await attach(page);
      const thanks = await send(page);
      expect(thanks.status()).toBe(200);
      expect(new URL(page.url()).pathname).toBe(`/f/${form.endpoint_token}/thanks`);
      expect(await page.textContent('[role="status"]')).toContain(
        'Thanks! We will be in touch within one working day.',
      );
      const stored = await storedSubmission(form);
      expectStoredAnswers(stored.payload_json);
      expect(stored.is_spam).toBe(false);
      expect(stored.fill_ms).toBeNull(); // no script, no page-load stamp
      await shot(page, 'phone-thanks');
    },
  );

  it(
    'with JavaScript: the page-load stamp runs under the page CSP and the post is stored',
    { timeout: 120_000 },
    async () => {
      const form = await t.api.createForm(pageFormSettings());
      const page = await newPage(DESKTOP);
      await page.goto(`${form.page_url}?utm_source=newsletter`);
      expect(await page.inputValue('input[name="_ts"]')).toMatch(/^\d{13}$/);
      await fillValid(page, { email: 'ada@example.com' });
      await page.waitForTimeout(3_100); // faster than 3 s is the too_fast spam rule
      const thanks = await send(page);
      expect(thanks.status()).toBe(200);
      expect(await page.textContent('h1')).toBe('Book a demo');
      const stored = await storedSubmission(form);
      expectStoredAnswers(stored.payload_json);
      expect(stored.is_spam).toBe(false);
      expect(stored.fill_ms).toBeGreaterThanOrEqual(3_000);
      expect(problems).toEqual([]);
    },
  );

  it(
    'with ALTCHA: the widget loads, solves its challenge same-origin and the post is stored',
    { timeout: 150_000 },
    async () => {
      const form = await t.api.createForm(pageFormSettings({ captcha: { provider: 'altcha' } }));
      const page = await newPage(DESKTOP);
      await page.goto(`${form.page_url}?utm_source=newsletter`);
      await fillValid(page, { email: 'ada@example.com' });
      await page.locator('altcha-widget label').first().click();
      const deadline = Date.now() + 90_000;
      while (!(await page.inputValue('input[name="altcha"]'))) {
        if (Date.now() > deadline) throw new Error('the ALTCHA widget did not solve its challenge');
        await page.waitForTimeout(100);
      }
      await expectNoAxeViolations(page, 'desktop-altcha');
      await shot(page, 'desktop-altcha');
      await page.waitForTimeout(3_100);
      const thanks = await send(page);
      expect(thanks.status()).toBe(200);
      const stored = await storedSubmission(form);
      expectStoredAnswers(stored.payload_json);
      expect(stored.is_spam).toBe(false);
      expect(problems).toEqual([]);
    },
  );
});
