import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onlySubmission } from '../support/stored-submissions';
import type { FormView } from '../support/api-client';
import { launchChromium, type LaunchedChromium } from '../support/chromium';
import { useTestStack } from '../support/fixture';
import { withoutReceipt } from '../support/ingest-requests';

// A customer's page on another origin (its own port) with the form's embed_html pasted in,
// submitted by a real Chromium.

const t = useTestStack();
let browser: LaunchedChromium;
let site: http.Server;
let siteUrl: string;
const pages = new Map<string, string>();

beforeAll(async () => {
  browser = await launchChromium();
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

/** Publishes a customer page with the form's markup (and optional extra head markup); returns its URL. */
function publish(path: string, form: FormView, head = ''): string {
  pages.set(
    path,
    `<!doctype html><html><head><meta charset="utf-8"><title>Contact us</title>${head}</head>
<body><h1 id="site-title">Contact us</h1>
${form.embed_html}
</body></html>`,
  );
  return `${siteUrl}${path}`;
}

async function fillContactForm(
  page: Page,
  values: { name: string; email: string; message: string },
) {
  await page.fill('input[name="name"]', values.name);
  await page.fill('input[name="email"]', values.email);
  await page.fill('textarea[name="message"]', values.message);
}

async function expectStored(form: FormView, values: Record<string, string>) {
  const stored = await onlySubmission(t.stack, form.id);
  expect(stored.payload_json).toEqual(values);
  expect(stored.is_spam).toBe(false);
  expect(stored.spam_reason).toBeNull();
}

describe('embed_html in a real browser', () => {
  it('plain HTML form: submits and lands on the thank-you page', { timeout: 90_000 }, async () => {
    const form = await t.api.createForm({ name: 'Website contact' });
    const pageUrl = publish('/plain', form);
    const values = { name: 'Ada Lovelace', email: 'ada@example.com', message: 'Sent by Chromium' };
    const page = await browser.context.newPage();
    try {
      await page.goto(pageUrl);
      await fillContactForm(page, values);
      const thanksUrl = `${t.stack.url}/f/${form.endpoint_token}/thanks`;
      const landed = (url: URL) => withoutReceipt(url.href) === thanksUrl;
      await Promise.all([page.waitForURL(landed), page.click('button[type="submit"]')]);
      expect(withoutReceipt(page.url())).toBe(thanksUrl);
      expect(await page.textContent('h1')).toMatch(/Thank you/);
      expect(await page.textContent('body')).toContain('Website contact');
      await expectStored(form, values);
    } finally {
      await page.close();
    }
  });

  it(
    'with the autocomplete script: submits in the background and shows the inline result',
    { timeout: 90_000 },
    async () => {
      const form = await t.api.createForm({ name: 'Inline contact' });
      const pageUrl = publish(
        '/enhanced',
        form,
        `<script src="${form.autocomplete_script_url}"></script>`,
      );
      const values = {
        name: 'Grace Hopper',
        email: 'grace@example.com',
        message: 'No navigation please',
      };
      const page = await browser.context.newPage();
      try {
        const navigations: string[] = [];
        await page.goto(pageUrl);
        page.on('framenavigated', (frame) => {
          if (frame === page.mainFrame()) navigations.push(frame.url());
        });
        await fillContactForm(page, values);
        await page.click('button[type="submit"]');
        const status = page.locator('[data-formward-status]');
        await status.filter({ hasText: 'Thank you' }).waitFor({ timeout: 20_000 });
        expect(await status.textContent()).toMatch(/Thank you/);
        expect(page.url()).toBe(pageUrl);
        expect(navigations).toEqual([]);
        expect(await page.textContent('#site-title')).toBe('Contact us');
        expect(await page.inputValue('input[name="email"]')).toBe(''); // the form was reset
        await expectStored(form, values);
      } finally {
        await page.close();
      }
    },
  );
});
