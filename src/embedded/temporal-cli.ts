import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from './package-root';

/** The CLI version scripts/temporal-cli.sh provisions, from the file it reads too. */
export function temporalCliVersion(): string {
  const file = path.join(packageRoot(), 'scripts', 'temporal-cli.version');
  return fs.readFileSync(file, 'utf8').trim();
}

// A cold `go install` of the CLI takes about ten minutes on two cores.
const PROVISION_TIMEOUT_MS = 30 * 60_000;

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
  return path.join(cacheHome, 'formward', `temporal-cli-${temporalCliVersion()}`);
}

/** The same lookup as scripts/temporal-cli.sh (explicit, PATH, our cache), building nothing. */
export function locateTemporalCli(explicit?: string): string | null {
  if (explicit) return isExecutable(explicit) ? path.resolve(explicit) : null;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.resolve(dir, 'temporal');
    if (isExecutable(candidate)) return candidate;
  }
  const cached = path.join(temporalCliCacheDir(), 'temporal');
  return isExecutable(cached) ? cached : null;
}

/** Runs scripts/temporal-cli.sh; its progress goes straight to our stderr, its answer is stdout. */
function runProvisioningScript(): Promise<string> {
  const script = path.join(packageRoot(), 'scripts', 'temporal-cli.sh');
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [script], {
      stdio: ['ignore', 'pipe', 'inherit'],
      timeout: PROVISION_TIMEOUT_MS,
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0) resolve(stdout.trim().split('\n').pop() ?? '');
      else reject(new Error(`${script} failed (${signal ?? `exit code ${code}`})`));
    });
  });
}

/**
 * The `temporal` binary for the embedded dev server: `explicit` (TEMPORAL_CLI), PATH, our
 * cache, and otherwise scripts/temporal-cli.sh provisions it (go install, else the release
 * download). A wrong explicit path fails at once rather than triggering a long build.
 */
export async function findTemporalCli(explicit = process.env.TEMPORAL_CLI): Promise<string> {
  const found = locateTemporalCli(explicit || undefined);
  if (found) return found;
  if (explicit) throw new Error(`TEMPORAL_CLI=${explicit} is not an executable file`);
  try {
    const provisioned = await runProvisioningScript();
    if (!isExecutable(provisioned)) throw new Error(`the script printed "${provisioned}"`);
    return path.resolve(provisioned);
  } catch (error) {
    throw new Error(
      `no Temporal CLI found and provisioning failed (${(error as Error).message}). ` +
        'Install it (https://docs.temporal.io/cli) and set TEMPORAL_CLI, or set TEMPORAL_ADDRESS.',
      { cause: error },
    );
  }
}
