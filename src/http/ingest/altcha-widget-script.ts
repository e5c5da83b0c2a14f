import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

let script: Buffer | undefined;

/**
 * The ALTCHA widget for customer pages: the package's full browser build (a classic script
 * with its proof-of-work workers inlined), so a pasted form needs nothing from a third party.
 * Read once from node_modules.
 */
export function altchaWidgetScript(): Buffer {
  if (!script) {
    const main = createRequire(__filename).resolve('altcha');
    const dist = main.slice(0, main.lastIndexOf(`${path.sep}dist${path.sep}`));
    script = fs.readFileSync(path.join(dist, 'dist', 'main', 'altcha.umd.min.cjs'));
  }
  return script;
}
