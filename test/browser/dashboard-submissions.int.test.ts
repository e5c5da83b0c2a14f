import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchWatchedChromium,
  signInWith,
  type WatchedChromium,
} from '../support/dashboard-browser';
import { useTestStack } from '../support/fixture';
import { submitJson } from '../support/ingest-requests';

// The submission pages in a real Chromium: hostile values (every field name and value is
// markup) show as text on the list, detail and export-preview pages and never run; search,
// the spam tab, marking, the CSV download and an erasure by e-mail address. Screenshots go to
// test/artifacts/; any Content-Security-Policy violation or dialog fails the walk.

const MARKUP = '<script>alert(1)</script><img src=x onerror=alert(2)>';

const t = useTestStack({ form: { name: 'Contact <b>us</b>' } });
let browser: WatchedChromium;

beforeAll(async () => {
  browser = await launchWatchedChromium();
});
afterAll(async () => {
  await browser?.close();
});

function watch(page: Page) {
  browser.watch(page);
  page.on('dialog', (dialog) => {
    browser.cspViolations.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
}

const shot = (page: Page, name: string) => browser.shot(page, `submissions-${name}`);

/** Nothing of the submission became markup in the page's main part. */
async function expectInert(page: Page) {
  expect(await page.locator('main script').count()).toBe(0);
  expect(await page.locator('main img').count()).toBe(0);
}

async function clickAndLoad(page: Page, selector: string) {
  await Promise.all([page.waitForLoadState('load'), page.click(selector)]);
}

describe('submission pages in a browser', () => {
  it(
    'search, detail, spam marking, export, erasure; markup stays text',
    { timeout: 120_000 },
    async () => {
      const hostile = await submitJson(t.form, {
        [MARKUP]: MARKUP,
        message: MARKUP,
        [`${MARKUP}list`]: [MARKUP, MARKUP],
        email: 'xss@example.com',
      });
      const plain = await submitJson(t.form, {
        email: 'ada@example.com',
        message: '=HYPERLINK("http://evil.example")',
      });
      const page = await browser.context.newPage();
      watch(page);
      await signInWith(page, t.stack.url, t);

      // Search across forms; the spam check may have moved the hostile one to the spam tab.
      await clickAndLoad(page, 'nav a[href="/app/submissions"]');
      await page.fill('input[name="q"]', 'xss@example.com');
      await page.selectOption('select[name="range"]', 'all');
      await clickAndLoad(page, 'form[role="search"] button');
      const row = `a[href="/app/submissions/${hostile}"]`;
      const spamTab = (await page.locator(row).count()) === 0;
      if (spamTab) await clickAndLoad(page, '.tabs a:text("Spam")');
      expect(await page.locator(row).count()).toBe(1);
      expect(await page.textContent('td.summary')).toContain(MARKUP);
      await expectInert(page);
      await shot(page, '01-search');

      // The detail page: the names and values are text.
      await clickAndLoad(page, row);
      const names = await page.locator('table.fields th').allTextContents();
      expect(names).toContain(MARKUP);
      expect(await page.locator('table.fields li').first().textContent()).toBe(MARKUP);
      await expectInert(page);
      await shot(page, '02-detail-hostile');

      // Mark the plain one as spam, then not spam: the flash offers the replay.
      await page.goto(`${t.stack.url}/app/submissions/${plain}`);
      await clickAndLoad(page, 'form[action$="/spam"] button');
      expect(await page.textContent('[role="status"]')).toContain('Marked as spam');
      await clickAndLoad(page, 'form[action$="/spam"] button');
      expect(await page.textContent('[role="status"]')).toContain('replay it');
      await shot(page, '03-marked-not-spam');

      // The export preview with the hostile one: its names are column headers, as text.
      const tab = spamTab ? '&spam=1' : '';
      await page.goto(
        `${t.stack.url}/app/forms/${t.form.id}/submissions?range=all&q=xss@example.com${tab}`,
      );
      await clickAndLoad(page, 'a:text("Export these submissions")');
      expect(await page.locator('table.export th').allTextContents()).toContain(MARKUP);
      await expectInert(page);
      await shot(page, '04-export-preview');

      // The CSV download of the plain one: the formula cell is escaped.
      await page.goto(`${t.stack.url}/app/forms/${t.form.id}/export?range=all&q=ada@example.com`);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.click('a:text("Download CSV")'),
      ]);
      expect(download.suggestedFilename()).toBe(
        `formward-${t.form.endpoint_token}-submissions.csv`,
      );
      const csv = fs.readFileSync((await download.path())!, 'utf8');
      expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"")"`);

      // Erase everything from ada@example.com: the confirmation names the count.
      await page.goto(`${t.stack.url}/app/submissions/${plain}`);
      await clickAndLoad(page, 'a[href^="/app/submissions/erase"]');
      await clickAndLoad(page, 'form[action="/app/submissions/erase"] button');
      expect(await page.textContent('main [role="alert"]')).toContain('1 submission');
      await shot(page, '05-erase-confirm');
      await clickAndLoad(page, 'form[action="/app/submissions/erase"] button.danger');
      expect(await page.textContent('[role="status"]')).toContain('erased');
      await page.goto(`${t.stack.url}/app/submissions/${plain}`);
      expect(await page.textContent('h1')).toBe('Not found');
      await page.close();

      expect(browser.cspViolations).toEqual([]);
    },
  );
});
