import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiClient, expectAnswer, expectError, type Json } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { signIn } from '../support/sign-in';
import { buildOnce } from '../support/build-once';

const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'bin/formward.js');

// Every test spawns a few CLI processes (about 1-2 s each, more on a loaded machine).
vi.setConfig({ testTimeout: 120_000 });

let dataDir: string;

beforeAll(async () => {
  await buildOnce();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'formward-cli-'));
});

afterAll(() => {
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const t = useTestStack();

type CliResult = { code: number | null; stdout: string; stderr: string };

/** Runs `node bin/formward.js ...args` against this file's database. */
function runCli(args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: t.stack.databaseUrl,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A successful creating command: exit 0 and exactly one JSON line on stdout. */
async function runJson(args: string[]): Promise<Json> {
  const result = await runCli(args);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout.endsWith('\n')).toBe(true);
  const lines = result.stdout.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!);
}

/** A refused command: the given exit code (any non-zero if omitted) and nothing on stdout. */
async function expectRefused(args: string[], code?: number): Promise<CliResult> {
  const result = await runCli(args);
  if (code === undefined) expect(result.code).not.toBe(0);
  else expect(result.code, result.stderr).toBe(code);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(/^formward: /);
  return result;
}

const uniqueEmail = () => `cli-${randomBytes(4).toString('hex')}@example.com`;

const accountCreate = (email: string) => [
  'account',
  'create',
  '--email',
  email,
  '--password',
  'cli password 1',
];

async function createAccount(email = uniqueEmail()): Promise<string> {
  return (await runJson(accountCreate(email))).account_id;
}

describe('account create', () => {
  it('prints one JSON line with the new account id', async () => {
    const out = await runJson(accountCreate(uniqueEmail()));
    expect(out.account_id).toMatch(/^\d+$/);
    const rows = await t.stack.sql<{ id: string }>('select id from accounts where id = ?', [
      out.account_id,
    ]);
    expect(rows).toHaveLength(1);
  });

  it('the new user can sign in with the password given', async () => {
    const email = uniqueEmail();
    const accountId = await createAccount(email);
    const cookie = await signIn(t.stack.url, email, 'cli password 1');
    const res = await t.http.get('/api', { cookie });
    expect(expectAnswer(res, 'GET /api', 200).account_id).toBe(accountId);
  });

  it('a duplicate e-mail (any case) is refused with a non-zero exit', async () => {
    const email = uniqueEmail();
    await createAccount(email);
    const result = await expectRefused(accountCreate(email.toUpperCase()));
    expect(result.stderr).toContain('already exists');
  });

  it('missing --password → exit 2', async () => {
    await expectRefused(['account', 'create', '--email', uniqueEmail()], 2);
  });
});

describe('key create', () => {
  let accountId: string;

  beforeAll(async () => {
    accountId = await createAccount();
  });

  const createKey = (...args: string[]) =>
    runJson(['key', 'create', '--account', accountId, ...args]);

  it('--role admin prints {id, key} and the key works on the HTTP API', async () => {
    const out = await createKey('--role', 'admin');
    expect(out.id).toMatch(/^\d+$/);
    expect(out.key).toMatch(/^frk_[A-Za-z0-9_-]{43,}$/);
    const api = new ApiClient(t.stack.url, { key: out.key });
    const root = expectAnswer(await api.get('/api'), 'GET /api', 200);
    expect(root.account_id).toBe(accountId);
    expect((await api.post('/api/forms', { name: 'From CLI key' })).status).toBe(201);
    expect((await api.get('/api/submissions/spam')).status).toBe(200);
  });

  it('--role readonly reads but cannot create', async () => {
    const api = new ApiClient(t.stack.url, { key: (await createKey('--role', 'readonly')).key });
    expect((await api.get('/api/submissions')).status).toBe(200);
    expectError(await api.post('/api/forms', { name: 'nope' }), 403, 'forbidden');
  });

  it('--scopes can_read_submissions gives exactly that scope', async () => {
    const out = await createKey('--scopes', 'can_read_submissions', '--name', 'reader');
    const api = new ApiClient(t.stack.url, { key: out.key });
    expect((await api.get('/api/submissions')).status).toBe(200);
    expectError(await api.get('/api/submissions/spam'), 403, 'forbidden');
    expectError(await api.post('/api/forms', { name: 'nope' }), 403, 'forbidden');
  });

  it('every key is different', async () => {
    const a = await createKey('--role', 'admin');
    const b = await createKey('--role', 'admin');
    expect(a.key).not.toBe(b.key);
    expect(a.id).not.toBe(b.id);
  });

  it.each([
    ['an unknown scope', ['--scopes', 'can_read_submissions,can_fly']],
    ['both --role and --scopes', ['--role', 'admin', '--scopes', 'can_read_submissions']],
    ['neither --role nor --scopes', []],
    ['an unknown role', ['--role', 'owner']],
  ])('%s → exit 2 and nothing on stdout', async (_label, args) => {
    await expectRefused(['key', 'create', '--account', accountId, ...args], 2);
  });

  it('an unknown account → refused, no key stored', async () => {
    await expectRefused(['key', 'create', '--account', '987654321', '--role', 'admin']);
    const rows = await t.stack.sql('select id from api_keys where account_id = 987654321');
    expect(rows).toHaveLength(0);
  });

  it('the 51st key of an account (MAX_API_KEYS_PER_ACCOUNT) → exit 2 with the reason', async () => {
    const full = await createAccount();
    const active = async () =>
      (
        await t.stack.sql<{ total: number }>(
          'select count(*)::int as total from api_keys where account_id = ? and revoked_at is null',
          [full],
        )
      )[0]!.total;
    while ((await active()) < 50) await t.stack.createKey(full, 'readonly');
    const refused = await expectRefused(['key', 'create', '--account', full, '--role', 'admin'], 2);
    expect(refused.stderr).toContain(
      'formward: This account has 50 API keys; MAX_API_KEYS_PER_ACCOUNT allows at most 50. Revoke a key to create another.',
    );
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(await active()).toBe(50);
  });
});

describe('key revoke', () => {
  it('revokes: the key then answers 401 invalid_api_key', async () => {
    const accountId = await createAccount();
    const created = await runJson(['key', 'create', '--account', accountId, '--role', 'admin']);
    expect((await t.http.get('/api', { key: created.key })).status).toBe(200);
    const out = await runJson(['key', 'revoke', created.id]);
    expect(out.id).toBe(created.id);
    const res = await t.http.get('/api', { key: created.key });
    expectError(res, 401, 'invalid_api_key');
  });

  it('revoking one key leaves the account’s other keys working', async () => {
    const accountId = await createAccount();
    const kept = await runJson(['key', 'create', '--account', accountId, '--role', 'admin']);
    const revoked = await runJson(['key', 'create', '--account', accountId, '--role', 'admin']);
    await runJson(['key', 'revoke', revoked.id]);
    expect((await t.http.get('/api', { key: kept.key })).status).toBe(200);
  });

  it('an unknown key id → refused', async () => {
    await expectRefused(['key', 'revoke', '987654321']);
  });

  it('account create, key create and key revoke are in the account’s audit log as the operator', async () => {
    const accountId = await createAccount();
    const created = await runJson(['key', 'create', '--account', accountId, '--role', 'admin']);
    await runJson(['key', 'revoke', created.id]);
    const entries = await t.stack.sql<Record<string, string | null>>(
      `select actor_type, actor_user_id, actor_api_key_id, actor_label, client_address, action,
              target_type, target_id
         from audit_events where account_id = ? order by id`,
      [accountId],
    );
    const operator = { actor_type: 'operator', actor_user_id: null, actor_api_key_id: null };
    expect(entries).toMatchObject([
      { ...operator, action: 'account.created', target_type: 'account', target_id: accountId },
      { ...operator, action: 'api_key.created', target_type: 'api_key', target_id: created.id },
      { ...operator, action: 'api_key.revoked', target_type: 'api_key', target_id: created.id },
    ]);
    for (const entry of entries) {
      expect(entry.actor_label).toMatch(/^cli/);
      expect(entry.client_address).toBeNull();
    }
  });
});

describe('usage', () => {
  it('an unknown command → exit 2', async () => {
    await expectRefused(['frobnicate'], 2);
  });
});
