import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FormSettings, FormView } from '../support/api-client';
import { runAxe } from '../support/axe';
import { useTestStack } from '../support/fixture';
import { sendForm, usePageBrowser } from '../support/page-browser';
import { HOSTILE } from '../support/page-form';

// Each gate of a form's limits (docs/form-limits.md) as a person meets it on the hosted page,
// with JavaScript off: the unique field refuses a repeat, the count closes the form for the
// next visitor, and the window shows "not open yet" or "closed"; the thank-you page offers the
// receipt. The owner's closed message is hostile and must stay text. Pages are axe-clean.

const t = useTestStack();
const SHOTS = path.join(os.tmpdir(), 'formward-form-limits');

const FIELDS: FormSettings['fields'] = [
  { name: 'name', label: 'Your name', type: 'text', required: true },
  { name: 'email', label: 'E-mail address', type: 'email', required: true },
];
const PAGE = {
  title: 'Spring meetup',
  description: 'Two seats left.',
  submit_label: 'Register',
  success_message: 'See you there!',
};
const HOUR_MS = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

const { newPage, problems } = usePageBrowser();
/** The page axe runs in (JavaScript on). */
let scripted: Page | undefined;

beforeAll(() => {
  fs.mkdirSync(SHOTS, { recursive: true });
});

/** A visitor of their own (no cookies shared), with JavaScript off unless asked. */
const visitor = (javaScriptEnabled = false) => newPage({ javaScriptEnabled });

const gatedForm = (limits: FormSettings['limits']) =>
  t.api.createForm({ name: 'Meetup', fields: FIELDS, page: PAGE, limits });

async function register(page: Page, form: FormView, name: string, email: string) {
  await page.goto(form.page_url!);
  await page.fill('#f0', name);
  await page.fill('#f1', email);
  return sendForm(page);
}

/** axe-core runs as a script: a page seen with JavaScript off is checked again with it on. */
async function expectAxeClean(page: Page, what: string) {
  let checked = page;
  if (page.context() !== scripted?.context()) {
    scripted ??= await visitor(true);
    await scripted.goto(page.url());
    checked = scripted;
  }
  const result = await runAxe(checked);
  fs.writeFileSync(path.join(SHOTS, `axe-${what}.json`), JSON.stringify(result, null, 2));
  expect(result.violations, what).toEqual([]);
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

describe('a gated form on its hosted page, without JavaScript', () => {
  it(
    'takes one registration per e-mail, closes at its count, and shows the closed message as text',
    { timeout: 120_000 },
    async () => {
      const form = await gatedForm({
        max_submissions: 2,
        unique_field: 'email',
        closed_message: `All seats are taken ${HOSTILE}`,
      });

      const ada = await visitor();
      const first = await register(ada, form, 'Ada', 'ada@example.com');
      expect(first.status()).toBe(200);
      expect(await ada.textContent('[role="status"]')).toContain('See you there!');
      // The thank-you page offers the receipt of what was stored.
      const receipt = ada.getByRole('link', { name: 'Download your receipt' });
      expect(await receipt.getAttribute('download')).toMatch(/^receipt-\d+\.jws$/);
      await expectAxeClean(ada, 'thanks-with-receipt');
      await shot(ada, 'thanks-with-receipt');

      // The same address again, in another case and with spaces: refused, nothing stored.
      // With JavaScript on: the refusal is the answer to a post, checked by axe where it is.
      scripted = await visitor(true);
      const repeated = await register(scripted, form, 'Ada again', ' ADA@example.com ');
      expect(repeated.status()).toBe(409);
      // Beside the e-mail field, which the summary links to.
      const fieldError = scripted.locator('.field:has(input[type="email"]) .error');
      expect(await fieldError.textContent()).toContain(
        'was already used for a submission of this form: each can be sent once',
      );
      expect(await scripted.getByRole('link', { name: /already used/ }).count()).toBe(1);
      await expectAxeClean(scripted, 'already-submitted');
      await shot(scripted, 'already-submitted');

      const bob = await register(await visitor(), form, 'Bob', 'bob@example.com');
      expect(bob.status()).toBe(200);

      // Two of two: the next visitor finds the owner's message, as text, and no form.
      const late = await visitor();
      const closed = await late.goto(form.page_url!);
      expect(closed!.status()).toBe(200);
      expect(await late.locator('form').count()).toBe(0);
      expect(await late.textContent('main')).toContain(`All seats are taken ${HOSTILE}`);
      await expectAxeClean(late, 'closed-full');
      await shot(late, 'closed-full');

      const [row] = await t.stack.sql<{ n: number }>(
        'select count(*)::int as n from submissions where form_id = ?',
        [form.id],
      );
      expect(row!.n).toBe(2);
      expect(problems).toEqual([]);
    },
  );

  it('before opens_at and after closes_at shows why instead of the form', async () => {
    const opensAt = at(HOUR_MS);
    const notYet = await gatedForm({ opens_at: opensAt });
    const page = await visitor();
    await page.goto(notYet.page_url!);
    expect(await page.locator('form').count()).toBe(0);
    expect(await page.textContent('main')).toContain('This form is not open yet');
    await expectAxeClean(page, 'not-open-yet');
    await shot(page, 'not-open-yet');

    const over = await gatedForm({ closes_at: at(-HOUR_MS) });
    await page.goto(over.page_url!);
    expect(await page.locator('form').count()).toBe(0);
    expect(await page.textContent('main')).toContain('This form is closed');
    await expectAxeClean(page, 'closed-window');
    expect(problems).toEqual([]);
  });
});
