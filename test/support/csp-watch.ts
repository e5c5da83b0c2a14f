import type { BrowserContext, Page } from 'playwright-core';

/**
 * Collects Content-Security-Policy violations and page errors of a browser context's pages.
 * The listener is added before each page's own scripts, through the DevTools protocol (not as
 * inline script, which the policy would refuse); page code is text because the tests are
 * type-checked without the DOM library.
 */
export async function watchCsp(context: BrowserContext) {
  const problems: string[] = [];
  await context.addInitScript(`
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error('CSP violation: ' + event.violatedDirective + ' ' + event.blockedURI);
    });
  `);
  return {
    problems,
    /** Starts listening to one page. */
    watch(page: Page) {
      page.on('console', (message) => {
        const text = message.text();
        if (/Content[- ]Security[- ]Policy|CSP violation/i.test(text)) problems.push(text);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    },
  };
}
