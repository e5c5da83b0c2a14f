import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

/** The system Chromium (Debian package `chromium`); CHROMIUM_PATH overrides it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type LaunchedChromium = { context: BrowserContext; close(): Promise<void> };

/** A headless Chromium with a fresh profile in a temporary directory, removed on close. */
export async function launchChromium(): Promise<LaunchedChromium> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ARGS,
  });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A headless Chromium without a profile, for tests that need contexts of their own: a phone
 * viewport, JavaScript turned off.
 */
export function launchChromiumBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ARGS });
}
