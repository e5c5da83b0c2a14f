import type {
  Browser,
  BrowserContext,
  BrowserContextOptions,
  Page,
  Response,
} from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromiumBrowser } from './chromium';

/** A phone's screen, as the hosted pages' browser tests use it. */
export const PHONE_VIEWPORT = { width: 390, height: 844 };

export type PageBrowser = {
  /**
   * A page in a context of its own (no cookies shared), a phone's size unless `options`
   * say otherwise. Its page errors, dialogs (an `alert` would be an injection) and, with
   * JavaScript on, Content-Security-Policy violations go into `problems`.
   */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /** What went wrong on any page so far; a test expects it empty. */
  problems: string[];
};

/** One Chromium for a test file's hosted pages, launched before its tests and closed after. */
export function usePageBrowser(): PageBrowser {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];
  beforeAll(async () => {
    browser = await launchChromiumBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
  });

  async function newPage(options: BrowserContextOptions = {}): Promise<Page> {
    const context = await browser!.newContext({ viewport: PHONE_VIEWPORT, ...options });
    contexts.push(context);
    if (options.javaScriptEnabled !== false)
      await context.addInitScript(`
        document.addEventListener('securitypolicyviolation', (event) => {
          console.error('CSP violation: ' + event.violatedDirective + ' ' + event.blockedURI);
        });
      `);
    const page = await context.newPage();
    page.on('console', (message) => {
      if (/Content[- ]Security[- ]Policy|CSP violation/i.test(message.text()))
        problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('dialog', (dialog) => {
      problems.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    return page;
  }

  return { newPage, problems };
}

/** Clicks the page's submit button and waits for the page the post leads to. */
export const sendForm = (page: Page): Promise<Response> =>
  Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]).then(
    ([response]) => response!,
  );
