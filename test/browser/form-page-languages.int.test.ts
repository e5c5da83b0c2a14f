import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runAxe } from '../support/axe';
import type { FormSettings } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { sendForm as send, usePageBrowser } from '../support/page-browser';

// A hosted page in Hebrew (right to left) and in German (docs/languages.md) in a real
// Chromium: lang and dir, no axe-core violation (WCAG 2.2 AA) before and after a refused post;
// with JavaScript off, the refusal in the page's language, then the corrected post stored.

const t = useTestStack({ env: { ABUSE_CONTACT: 'mailto:abuse@forms.example' } });

const { newPage } = usePageBrowser();

const FIELDS = [
  { name: 'name', label: 'Name', type: 'text', required: true },
  { name: 'email', label: 'E-mail', type: 'email', required: true },
  { name: 'topic', label: 'Topic', type: 'select', required: false, options: ['A', 'B'] },
  { name: 'days', label: 'Days', type: 'checkbox', required: true, options: ['Mon', 'Tue'] },
] satisfies NonNullable<FormSettings['fields']>;

const CASES = [
  {
    language: 'he',
    dir: 'rtl',
    title: 'צור קשר',
    name: 'שם',
    errorTitle: 'שגיאה: צור קשר',
    heading: 'יש בעיה',
    required: 'זהו שדה חובה.',
    prefix: 'שגיאה:',
    thanks: 'תודה! התשובה שלך התקבלה.',
  },
  {
    language: 'de',
    dir: 'ltr',
    title: 'Kontakt',
    name: 'Name',
    errorTitle: 'Fehler: Kontakt',
    heading: 'Bitte prüfen Sie Ihre Angaben',
    required: 'Bitte füllen Sie dieses Feld aus.',
    prefix: 'Fehler:',
    thanks: 'Vielen Dank! Ihre Angaben sind bei uns eingegangen.',
  },
] as const;

async function expectAxeClean(page: Page, what: string) {
  const result = await runAxe(page);
  expect(result.violations, what).toEqual([]);
  expect(result.rulesRun).toEqual(expect.arrayContaining(['html-has-lang', 'html-lang-valid']));
}

/** Leaves the required name blank (spaces pass the browser's own check, not ingest's). */
async function fillWithBlankName(page: Page) {
  await page.fill('#f0', '   ');
  await page.fill('#f1', 'ada@example.com');
  await page.check('#f3-1');
}

describe('a hosted page in its language', () => {
  it.each(CASES)(
    '$language: lang, dir, axe-clean, refused and sent without JavaScript',
    { timeout: 120_000 },
    async (c) => {
      const fields = FIELDS.map((f, i) => (i === 0 ? { ...f, label: c.name } : f));
      const form = await t.api.createForm({
        fields,
        page: { title: c.title, language: c.language },
      });

      const checked = await newPage();
      await checked.goto(form.page_url!);
      expect(await checked.getAttribute('html', 'lang')).toBe(c.language);
      expect(await checked.getAttribute('html', 'dir')).toBe(c.dir);
      await expectAxeClean(checked, `${c.language}-clean`);
      await fillWithBlankName(checked);
      expect((await send(checked)).status()).toBe(422);
      expect(await checked.getAttribute('html', 'dir')).toBe(c.dir);
      await expectAxeClean(checked, `${c.language}-errors`);

      const page = await newPage({ javaScriptEnabled: false });
      await page.goto(form.page_url!);
      expect(await page.title()).toBe(c.title);
      await fillWithBlankName(page);
      const refused = await send(page);
      expect(refused.status()).toBe(422);
      expect(await page.title()).toBe(c.errorTitle);
      expect(await page.getAttribute('html', 'lang')).toBe(c.language);
      expect(await page.textContent('#error-summary-title')).toBe(c.heading);
      expect(await page.textContent('[role="alert"] li')).toContain(c.required);
      expect(await page.textContent('#f0-error')).toBe(`${c.prefix} ${c.required}`);

      await page.fill('#f0', 'Ada');
      const thanks = await send(page);
      expect(thanks.status()).toBe(200);
      expect(await page.textContent('[role="status"]')).toContain(c.thanks);
      expect(await page.getAttribute('html', 'lang')).toBe(c.language);
      const rows = await t.stack.sql<{ payload_json: Record<string, unknown> }>(
        'select payload_json from submissions where form_id = ?',
        [form.id],
      );
      expect(rows.map((r) => r.payload_json)).toEqual([
        { name: 'Ada', email: 'ada@example.com', days: ['Tue'] },
      ]);
    },
  );
});
