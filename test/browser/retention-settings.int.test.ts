import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTime } from '../../src/http/kit/chrome/format-time';
import { expectAnswer } from '../support/api-client';
import {
  launchWatchedChromium,
  signInWith,
  type WatchedChromium,
} from '../support/dashboard-browser';
import { useTestStack } from '../support/fixture';
import { retentionScheduleOf, temporalClientOf } from '../support/retention-runs';

// A form's retention in a real Chromium (docs/retention.md): the policy on the form's page with
// the next purge read from the Temporal schedule, a refused and a saved change of both fields.
// Screenshots: test/artifacts/dashboard-retention-*.png.

const t = useTestStack({ worker: true });
let browser: WatchedChromium;
let temporal: Awaited<ReturnType<typeof temporalClientOf>>;

beforeAll(async () => {
  browser = await launchWatchedChromium();
  temporal = await temporalClientOf(t.stack);
});
afterAll(async () => {
  await browser?.close();
  await retentionScheduleOf(temporal.client, t.stack)
    .delete()
    .catch(() => undefined);
  await temporal?.close();
});

const submit = (page: Page, selector: string) =>
  Promise.all([
    page.waitForLoadState('load'),
    page.waitForEvent('framenavigated'),
    page.click(selector),
  ]);

/** The policy panel as text, term by term. */
async function policy(page: Page): Promise<Record<string, string>> {
  const terms = await page.locator('#retention dt').allTextContents();
  const values = await page.locator('#retention dd').allTextContents();
  return Object.fromEntries(terms.map((term, i) => [term, values[i]!.trim()]));
}

describe('retention settings in a browser', () => {
  it('shows the policy and the next purge, refuses 0 days, saves 90 days and delete after delivery', async () => {
    const form = await t.api.createForm({ name: 'Retention in the browser' });
    const page = await browser.context.newPage();
    browser.watch(page);
    await signInWith(page, t.stack.url, t);
    await page.goto(`${t.stack.url}/app/forms/${form.id}/settings`);

    const next = (await retentionScheduleOf(temporal.client, t.stack).describe()).info
      .nextActionTimes[0]!;
    expect(await policy(page)).toEqual({
      'Submissions kept': 'for ever',
      'Delete after delivery': 'no',
      'Spam kept': '30 days (SPAM_RETENTION_DAYS, every form)',
      'Next purge': formatTime(next),
    });

    const save = `form[action="/app/forms/${form.id}"] button[type="submit"]`;
    // The browser's own check would stop 0 before it is sent: the server's answer is the test.
    await page.$eval('input[name="retention_days"]', (input) => input.removeAttribute('min'));
    await page.fill('input[name="retention_days"]', '0');
    await submit(page, save);
    expect(await page.textContent('.field-error')).toBe(
      'must be at least 1 day (null: keep for ever)',
    );
    await browser.shot(page, 'retention-01-refused');

    await page.fill('input[name="retention_days"]', '90');
    await page.check('input[name="delete_after_delivery"]');
    await submit(page, save);
    expect(await page.textContent('[role="status"]')).toContain('saved');
    expect(await policy(page)).toMatchObject({
      'Submissions kept': '90 days',
      'Delete after delivery': 'yes: once every delivery succeeded',
    });
    expect(await page.inputValue('input[name="retention_days"]')).toBe('90');
    expect(await page.isChecked('input[name="delete_after_delivery"]')).toBe(true);
    await page.locator('#retention').scrollIntoViewIfNeeded();
    await browser.shot(page, 'retention-02-saved');
    const read = await t.api.get(`/api/forms/${form.id}`);
    expect(expectAnswer(read, 'GET /api/forms/{id}', 200).form).toMatchObject({
      retention_days: 90,
      delete_after_delivery: true,
    });

    // Empty keeps for ever again.
    await page.fill('input[name="retention_days"]', '');
    await submit(page, save);
    expect((await policy(page))['Submissions kept']).toBe('for ever');
    await page.close();
    expect(browser.cspViolations).toEqual([]);
  });
});
