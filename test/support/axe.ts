import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** The WCAG levels the pages are held to: 2.0 and 2.1 A and AA, and 2.2 AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'];

const axeSource = fs.readFileSync(createRequire(__filename).resolve('axe-core/axe.min.js'), 'utf8');

export type AxeViolation = { id: string; impact: string | null; help: string; targets: string[] };
export type AxeResult = {
  /** Every rule axe ran for the tags: passed, violated, incomplete or not applicable. */
  rulesRun: string[];
  violations: AxeViolation[];
  /** Checks axe could not decide alone (e.g. contrast over an image): listed, not failed. */
  incomplete: string[];
};

/**
 * Runs axe-core (node_modules/axe-core) on the page for WCAG_TAGS. The script is evaluated
 * through the DevTools protocol, so the page's Content-Security-Policy does not stop it and
 * the page needs no change.
 */
export async function runAxe(page: Page): Promise<AxeResult> {
  await page.evaluate(axeSource);
  // Page code is given as text: the tests are type-checked without the DOM library.
  return (await page.evaluate(`
    axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_TAGS)} } }).then((r) => ({
      rulesRun: [...new Set([...r.passes, ...r.violations, ...r.incomplete, ...r.inapplicable].map((x) => x.id))].sort(),
      violations: r.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n) => n.target.join(' ')),
      })),
      incomplete: r.incomplete.map((x) => x.id),
    }))
  `)) as AxeResult;
}
