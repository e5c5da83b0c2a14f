import type { Page } from 'playwright-core';
import { launchChromium, type LaunchedChromium } from './chromium';

/**
 * A Chromium whose pages report every Content-Security-Policy violation on their console.
 * The listener runs before the page's own scripts (through the DevTools protocol, not as
 * inline script); page code is given as text: the tests are type-checked without the DOM library.
 */
export async function launchWatchedChromium(): Promise<LaunchedChromium> {
  const browser = await launchChromium();
  await browser.context.addInitScript(`
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error('CSP violation: ' + event.violatedDirective + ' ' + event.blockedURI);
    });
  `);
  return browser;
}

/** Adds the page's CSP violations and uncaught errors to `problems`. */
export function watchPage(page: Page, problems: string[]): void {
  page.on('console', (message) => {
    const text = message.text();
    if (/Content[- ]Security[- ]Policy|CSP violation/i.test(text)) problems.push(text);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
}
