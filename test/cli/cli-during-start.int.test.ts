import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, inject, it, vi } from 'vitest';
import { freePort } from '../../src/embedded/free-port';
import { killAll, spawnFormward, waitUntilGone, type RunningStart } from './running-start';
import { buildOnce } from '../support/build-once';

// The README's first steps as a new user takes them: `npm start` in one terminal, and the
// moment its API answers, `npx formward account create` in a second one. The CLI must find the
// running embedded PostgreSQL, not try to start a second one on the same DATA_DIR.

vi.setConfig({ testTimeout: 150_000 });

let dataDir: string;
let stack: RunningStart | undefined;

beforeAll(async () => {
  await buildOnce();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-cli-early-'));
  // As root, PostgreSQL runs as `postgres`, which must enter it.
  fs.chmodSync(dataDir, 0o755);
});

afterAll(async () => {
  if (stack && stack.child.exitCode === null) stack.child.kill('SIGKILL');
  if (dataDir) {
    killAll(dataDir);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

/** Polls `url` until it answers at all; the status of its first answer. */
async function firstAnswer(url: string, running: RunningStart): Promise<number> {
  const deadline = Date.now() + 140_000;
  for (;;) {
    try {
      return (await fetch(url)).status;
    } catch {
      // Not listening yet.
    }
    if (running.child.exitCode !== null) throw new Error(`start exited:\n${running.output()}`);
    if (Date.now() > deadline) throw new Error(`no answer from ${url}:\n${running.output()}`);
    await sleep(25);
  }
}

it('creates an account and a key the moment the API first answers 401', async () => {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'BASE_URL', 'INGEST_URL'])
    delete env[name];
  Object.assign(env, {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    TEMPORAL_CLI: inject('stack').temporalCli,
  });
  const running = spawnFormward(env);
  stack = running;

  expect(await firstAnswer(`http://127.0.0.1:${port}/api`, running)).toBe(401);
  const account = await running.cli([
    ...['account', 'create', '--email', 'early@example.com'],
    ...['--password', 'correct horse battery'],
  ]);
  expect(account.account_id).toMatch(/^\d+$/);
  const created = await running.cli([
    'key',
    'create',
    '--account',
    account.account_id!,
    '--role',
    'admin',
  ]);
  expect(created.key).toMatch(/^frk_/);

  // The key works against the same running instance: the CLI wrote to its database.
  const root = await fetch(`http://127.0.0.1:${port}/api`, {
    headers: { authorization: `Bearer ${created.key}` },
  });
  expect(root.status).toBe(200);
  expect(((await root.json()) as { account_id: string }).account_id).toBe(account.account_id);

  await running.waitForOutput(/Press Ctrl-C to stop/, 0, 140_000);
  const runtime = JSON.parse(fs.readFileSync(path.join(dataDir, 'runtime.json'), 'utf8')) as {
    baseUrl: string;
  };
  expect(runtime.baseUrl).toBe(`http://127.0.0.1:${port}`);
  running.child.kill('SIGTERM');
  expect(await running.exited).toEqual({ code: 0, signal: null });
  expect(fs.existsSync(path.join(dataDir, 'runtime.json'))).toBe(false);
  expect(await waitUntilGone([running.pid], 5_000)).toEqual([]);
});
