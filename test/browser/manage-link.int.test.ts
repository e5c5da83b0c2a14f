import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runAxe } from '../support/axe';
import { fastDeliveryEnv } from '../support/delivery-attempts';
import { startDnsServer, type DnsServer } from '../support/dns-server';
import { useTestStack } from '../support/fixture';
import {
  serviceSignatureValid,
  startHttpsReceiver,
  type HttpsReceiver,
} from '../support/https-receiver';
import { sendForm, usePageBrowser } from '../support/page-browser';

// A submitter's manage link (docs/manage-links.md) as a person uses it, JavaScript off: the
// thank-you page shows the link once; it opens what was sent (quotes, ampersands and angle
// brackets as text: markup itself would be judged spam), the
// answers are changed through the same page and the submission is deleted after a
// confirmation. A real HTTPS receiver hears submission.created, .updated and .deleted, signed.
// Every page is axe-clean.

let dns: DnsServer;
let receiver: HttpsReceiver;
const SHOTS = path.join(os.tmpdir(), 'formward-manage-link');

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  dns = await startDnsServer({});
  receiver = await startHttpsReceiver(inject('stack').certificates);
});
afterAll(async () => {
  await receiver?.close();
  await dns?.close();
});

/** Characters a page must escape, in text the spam rules let through. */
const TRICKY = 'Ada "the first" & <3 \'quotes\'';

const t = useTestStack(() => ({ worker: true, env: fastDeliveryEnv(dns.address) }));
const { newPage, problems } = usePageBrowser();

/** axe-core runs as a script: the page at the same address, in a page with JavaScript on. */
async function expectAxeClean(url: string, what: string) {
  const checked = await newPage();
  await checked.goto(url);
  const result = await runAxe(checked);
  fs.writeFileSync(path.join(SHOTS, `axe-${what}.json`), JSON.stringify(result, null, 2));
  expect(result.violations, what).toEqual([]);
  await checked.screenshot({ path: path.join(SHOTS, `${what}.png`), fullPage: true });
}

/** Follows a link or button by its text and waits for the page it leads to. */
async function follow(page: Page, selector: string) {
  const [response] = await Promise.all([page.waitForNavigation(), page.click(selector)]);
  return response!;
}

describe('a manage link in a browser without JavaScript', () => {
  it(
    'views, edits and deletes a submission; the receiver hears created, updated, deleted',
    { timeout: 180_000 },
    async () => {
      const form = await t.api.createForm({
        name: 'Feedback',
        fields: [
          { name: 'name', label: 'Your name', type: 'text', required: true },
          { name: 'message', label: 'Message', type: 'textarea', required: true },
        ],
        page: { title: 'Tell us', success_message: 'Thanks for writing.' },
        submitter_access: 'edit_delete',
      });
      const plugin = await t.api.addWebhook(form.id, `${receiver.url}/events`);
      const page = await newPage({ javaScriptEnabled: false });

      await page.goto(form.page_url!);
      await page.fill('#f0', 'Ada');
      await page.fill('#f1', `Hello ${TRICKY}`);
      expect((await sendForm(page)).status()).toBe(200);
      expect(await page.textContent('[role="status"]')).toContain('Thanks for writing.');
      const link = (await page.locator('a[href*="/s/"]').first().getAttribute('href'))!;
      expect(link).toMatch(/\/s\/\d+\/[A-Za-z0-9_-]{43}$/);
      await expectAxeClean(page.url(), 'thanks-with-link');

      // The link shows what was stored, the hostile text as text.
      await page.goto(link);
      expect(await page.textContent('main')).toContain(`Hello ${TRICKY}`);
      await expectAxeClean(link, 'view');

      // Changed through the same page, pre-filled; the view shows the new version.
      expect((await follow(page, 'a:text("Change your answers")')).status()).toBe(200);
      expect(await page.inputValue('#f0')).toBe('Ada');
      await expectAxeClean(page.url(), 'edit');
      await page.fill('#f1', 'Hello again');
      expect((await sendForm(page)).status()).toBe(200);
      expect(new URL(page.url()).pathname).toBe(new URL(link).pathname);
      expect(await page.textContent('main')).toContain('Hello again');
      expect(await page.textContent('main')).toContain('Your changes were saved.');

      // Deleted after the confirmation; the link opens nothing any more.
      expect((await follow(page, 'a:text("Delete this submission")')).status()).toBe(200);
      await expectAxeClean(page.url(), 'delete-confirm');
      expect((await follow(page, 'button[type="submit"]')).status()).toBe(200);
      expect(await page.textContent('main')).toContain('Your submission was deleted');
      const gone = await page.goto(link);
      expect(gone!.status()).toBe(404);

      const [created, updated, deleted] = await receiver.waitFor(3);
      for (const delivery of [created!, updated!, deleted!])
        expect(serviceSignatureValid(delivery, plugin.signing_secret)).toBe(true);
      const id = /\/s\/(\d+)\//.exec(link)![1];
      expect(JSON.parse(created!.body)).toMatchObject({
        event: 'submission.created',
        id,
        data: { name: 'Ada', message: `Hello ${TRICKY}` },
      });
      expect(JSON.parse(updated!.body)).toMatchObject({
        event: 'submission.updated',
        id,
        data: { name: 'Ada', message: 'Hello again' },
      });
      expect(JSON.parse(deleted!.body)).toEqual({
        event: 'submission.deleted',
        id,
        form_id: form.endpoint_token,
        deleted_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      expect(problems).toEqual([]);
    },
  );
});
