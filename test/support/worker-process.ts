import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestStack } from './test-stack';

const repoRoot = path.resolve(__dirname, '../..');

/**
 * The service built as `npm run build` builds it (tsc, then the workflow bundle the worker
 * loads) into a folder of its own under .tmp/, so its imports resolve from the repository's
 * node_modules, for tests that run `formward` as a separate process.
 */
export function compileService(prefix: string): { dir: string; remove(): void } {
  fs.mkdirSync(path.join(repoRoot, '.tmp'), { recursive: true });
  const dir = fs.mkdtempSync(path.join(repoRoot, '.tmp', `${prefix}-`));
  execFileSync(
    process.execPath,
    [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', repoRoot, '--outDir', dir],
    { stdio: 'inherit' },
  );
  execFileSync(process.execPath, [path.join(dir, 'scripts/bundle-workflows.js')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** `formward worker` as its own process, on a test stack's database and task queue. */
export function spawnWorkerProcess(
  buildDir: string,
  stack: TestStack,
  env: Record<string, string>,
): ChildProcess {
  return spawn(
    process.execPath,
    ['-e', `require(${JSON.stringify(path.join(buildDir, 'src/cli.js'))}).main(['worker'])`],
    {
      env: {
        ...process.env,
        DATABASE_URL: stack.databaseUrl,
        TEMPORAL_ADDRESS: stack.temporalAddress,
        TEMPORAL_TASK_QUEUE: stack.taskQueue,
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'formward-worker-')),
        // One deployment, one APP_SECRET: it opens the webhook signing secrets the API sealed.
        APP_SECRET: stack.ctx.appSecret,
        BASE_URL: stack.url,
        PORT: '0',
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}
