import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { sharedStack } from './shared-stack';

const ROOT = path.resolve(__dirname, '../..');
const LOCK = path.join(ROOT, '.tmp', 'test-build.lock');
const MARKER = path.join(ROOT, 'dist', '.test-run');

/**
 * `npm run build` once per test run, for the test files that run the built CLI: they would
 * otherwise build at the same time, and a build empties dist's dashboard folders while another
 * file's `formward` reads them. The run is told apart by the global setup's data directory.
 */
export async function buildOnce(): Promise<void> {
  const run = sharedStack().dataDir;
  fs.mkdirSync(path.dirname(LOCK), { recursive: true });
  await acquire();
  try {
    if (readMarker() === run) return;
    await promisify(execFile)('npm', ['run', 'build'], { cwd: ROOT, timeout: 300_000 });
    fs.writeFileSync(MARKER, run);
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

function readMarker(): string | null {
  try {
    return fs.readFileSync(MARKER, 'utf8');
  } catch {
    return null;
  }
}

/** A directory as the lock (mkdir is atomic); one left by a killed run expires after 10 min. */
async function acquire(): Promise<void> {
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const age = Date.now() - (fs.statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > 600_000) fs.rmSync(LOCK, { recursive: true, force: true });
    await sleep(200);
  }
}
