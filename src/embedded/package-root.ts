import fs from 'node:fs';
import path from 'node:path';

/** The folder holding our package.json, from source (vitest) or from dist/. */
export function packageRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the formward package root');
    dir = parent;
  }
  return dir;
}
