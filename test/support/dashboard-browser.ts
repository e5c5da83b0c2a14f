import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { findPart, readMimeMessage } from '../../src/domain/mail/mime-reader';
import type { SmtpSink } from './smtp-sink';
import { launchChromium, type LaunchedChromium } from './chromium';

/** Where the browser tests put their screenshots (ignored by git). */
export const ARTIFACTS = path.resolve(__dirname, '../artifacts');

/**
 * With UPDATE_SCREENSHOTS=1 (`npm run screenshots`), the page as docs/screenshots/<file>.png
 * for the README (the whole page, or the viewport); otherwise nothing.
 */
export async function readmeShot(page: Page, file: string, fullPage = false): Promise<void> {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  const folder = path.resolve(__dirname, '../../docs/screenshots');
  fs.mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: path.join(folder, `${file}.png`), fullPage });
}

/** With UPDATE_SCREENSHOTS=1, one part of a page (a form, a table) as docs/screenshots/<file>.png. */
export async function readmeShotOf(part: Locator, file: string): Promise<void> {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  const folder = path.resolve(__dirname, '../../docs/screenshots');
  fs.mkdirSync(folder, { recursive: true });
  await part.screenshot({ path: path.join(folder, `${file}.png`) });
}

export type WatchedChromium = LaunchedChromium & {
  /** CSP violations, page errors (and whatever a test adds, e.g. dialogs) seen on watched pages; a walk expects none. */
  cspViolations: string[];
  /** Records the page's CSP violations and errors into cspViolations. */
  watch(page: Page): void;
  /** A full-page screenshot, test/artifacts/dashboard-<name>.png. */
  shot(page: Page, name: string): Promise<Buffer>;
};

/** Signs in through the sign-in form on `page`, landing where the form leads (`/app`). */
export async function signInWith(
  page: Page,
  baseUrl: string,
  account: { email: string; password: string },
): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.fill('input[name="email"]', account.email);
  await page.fill('input[name="password"]', account.password);
  await Promise.all([
    page.waitForURL(`${baseUrl}/app`),
    page.click('form[action="/login"] button'),
  ]);
}

/**
 * Fills in the sign-up form on `page` and lets the ALTCHA widget solve its challenge in the
 * browser, leaving the form ready to send.
 */
export async function fillSignUp(
  page: Page,
  baseUrl: string,
  account: { name: string; email: string; password: string },
): Promise<void> {
  await page.goto(`${baseUrl}/signup`);
  await page.fill('input[name="name"]', account.name);
  await page.fill('input[name="email"]', account.email);
  await page.fill('input[name="password"]', account.password);
  // As a person does: the checkbox's label (its drawn tick covers the box itself).
  await page.locator('altcha-widget label').first().click();
  // The widget fetches a challenge, solves it in its worker and puts the proof in the form.
  // (Polled from here: waitForFunction would evaluate a string, which the page's CSP forbids.)
  const deadline = Date.now() + 90_000;
  while (!(await page.inputValue('input[name="altcha"]'))) {
    if (Date.now() > deadline) throw new Error('the ALTCHA widget did not solve its challenge');
    await page.waitForTimeout(100);
  }
}

/**
 * The first link of the first e-mail to `to` that the sink took after its `after`-th message
 * and whose text contains `marker`, waiting for it (10 s).
 */
export async function linkFromMail(
  sink: SmtpSink,
  to: string,
  marker: string,
  after: number,
): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const message = sink.messages
      .slice(after)
      .find((m) => m.rcptTo.includes(to) && m.raw.toString('latin1').includes(marker));
    if (message) {
      const text = findPart(readMimeMessage(message.raw), 'text/plain')!.body;
      return /https?:\/\/\S+/.exec(text)![0];
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no e-mail to ${to} with ${marker}`);
}

/** A Chromium whose pages report Content-Security-Policy violations on their console. */
export async function launchWatchedChromium(): Promise<WatchedChromium> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const browser = await launchChromium();
  // Runs before the page's own scripts (through the DevTools protocol, not as inline script).
  // Page code is given as text: the tests are type-checked without the DOM library.
  await browser.context.addInitScript(`
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error('CSP violation: ' + event.violatedDirective + ' ' + event.blockedURI);
    });
  `);
  const cspViolations: string[] = [];
  return {
    ...browser,
    cspViolations,
    watch(page) {
      page.on('console', (message) => {
        const text = message.text();
        if (/Content[- ]Security[- ]Policy|CSP violation/i.test(text)) cspViolations.push(text);
      });
      page.on('pageerror', (error) => cspViolations.push(`page error: ${error.message}`));
    },
    shot: (page, name) =>
      page.screenshot({ path: path.join(ARTIFACTS, `dashboard-${name}.png`), fullPage: true }),
  };
}
