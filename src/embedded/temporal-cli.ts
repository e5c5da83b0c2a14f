import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { packageRoot } from './package-root';

const execFileAsync = promisify(execFile);
export const TEMPORAL_CLI_VERSION = '1.5.1';

const isExecutable = (file: string) => {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
};

export function temporalCliCacheDir(): string {
  const cacheHome = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cacheHome, 'formward', `temporal-cli-${TEMPORAL_CLI_VERSION}`);
}

/** The same lookup as scripts/temporal-cli.sh, without building anything. */
export function locateTemporalCli(explicit?: string): string | null {
  if (explicit) return isExecutable(explicit) ? path.resolve(explicit) : null;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, 'temporal');
    if (isExecutable(candidate)) return candidate;
  }
  const cached = path.join(temporalCliCacheDir(), 'temporal');
  return isExecutable(cached) ? cached : null;
}

/**
 * The `temporal` binary for the embedded dev server: TEMPORAL_CLI, PATH, our cache, and
 * otherwise scripts/temporal-cli.sh provisions it (go install, else the release download).
 */
export async function findTemporalCli(explicit = process.env.TEMPORAL_CLI): Promise<string> {
  const found = locateTemporalCli(explicit || undefined);
  if (found) return found;
  if (explicit) throw new Error(`TEMPORAL_CLI=${explicit} is not an executable file`);
  const script = path.join(packageRoot(), 'scripts', 'temporal-cli.sh');
  try {
    const { stdout } = await execFileAsync('bash', [script], {
      maxBuffer: 1024 * 1024,
      timeout: 30 * 60_000,
    });
    const provisioned = stdout.trim().split('\n').pop() ?? '';
    if (!isExecutable(provisioned)) throw new Error(`the script printed "${provisioned}"`);
    return provisioned;
  } catch (error) {
    throw new Error(
      `no Temporal CLI found and provisioning failed (${(error as Error).message}). ` +
        'Install it (https://docs.temporal.io/cli) and set TEMPORAL_CLI, or set TEMPORAL_ADDRESS.',
    );
  }
}
