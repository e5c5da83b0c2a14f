import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import type { Config } from '../config/config';
import { createAccount } from '../domain/accounts/accounts';
import { createApiKey, revokeApiKey } from '../domain/accounts/api-keys';
import { isScope, ROLES, type Role, type Scope } from '../domain/accounts/scopes';
import { recordAuditEvent, type AuditEntry } from '../domain/audit/audit-log';
import { Account } from '../db/entities';
import type { Orm } from '../db/orm';
import { withDatabase } from './database-session';
import { printJson, UsageError } from './output';

/** The operator's change, in the audit log of the account it touched (docs/audit-log.md). */
function recordOperatorChange(
  orm: Orm,
  entry: Omit<AuditEntry, 'actor' | 'clientAddress'>,
): Promise<void> {
  let who = 'cli';
  try {
    who = `cli (${userInfo().username})`;
  } catch {
    // No user name on this system: the CLI alone says enough.
  }
  const actor = { type: 'operator' as const, label: who };
  return recordAuditEvent(orm.em.fork(), { ...entry, actor, clientAddress: null });
}

/** `formward account create --email E --password P [--name N]` */
export async function accountCreate(config: Config, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
  });
  if (!values.email || !values.password)
    throw new UsageError('account create needs --email and --password');
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email))
    throw new UsageError('--email must be an e-mail address');
  if (values.password.length < 8)
    throw new UsageError('--password must have at least 8 characters');
  const { email, password, name } = values;
  await withDatabase(config, async (orm) => {
    const { account, user } = await createAccount(orm.em.fork(), { email, password, name });
    await recordOperatorChange(orm, {
      accountId: account.id,
      action: 'account.created',
      targetType: 'account',
      targetId: account.id,
      summary: `account for ${user.email}`,
    });
    printJson({ account_id: account.id, user_id: user.id, email: user.email });
  });
}

/** `formward key create --account ID (--role admin|readonly | --scopes a,b,c) [--name N]` */
export async function keyCreate(config: Config, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      account: { type: 'string' },
      role: { type: 'string' },
      scopes: { type: 'string' },
      name: { type: 'string' },
    },
  });
  if (!values.account || !/^\d+$/.test(values.account))
    throw new UsageError('key create needs --account ID');
  if (Boolean(values.role) === Boolean(values.scopes)) {
    throw new UsageError('key create needs exactly one of --role admin|readonly or --scopes a,b,c');
  }
  let scopes: Scope[];
  let role: Role | null = null;
  if (values.role) {
    if (!(values.role in ROLES))
      throw new UsageError(`--role must be one of ${Object.keys(ROLES).join(', ')}`);
    role = values.role as Role;
    scopes = [...ROLES[role]];
  } else {
    const requested = values
      .scopes!.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = requested.filter((s) => !isScope(s));
    if (unknown.length > 0 || requested.length === 0) {
      throw new UsageError(`unknown scope(s): ${unknown.join(', ') || '(none given)'}`);
    }
    scopes = requested as Scope[];
  }
  const accountId = values.account;
  await withDatabase(config, async (orm) => {
    const em = orm.em.fork();
    if (!(await em.findOne(Account, { id: accountId })))
      throw new UsageError(`no account with id ${accountId}`);
    const created = await createApiKey(
      em,
      { accountId, scopes, role, name: values.name },
      config.budgets.apiKeysPerAccount,
    );
    await recordOperatorChange(orm, {
      accountId,
      action: 'api_key.created',
      targetType: 'api_key',
      targetId: created.id,
      summary: `key “${created.apiKey.name}” (${created.apiKey.prefix}…), ${role ?? scopes.join(' ')}`,
    });
    printJson({ id: created.id, key: created.key, account_id: accountId, scopes, role });
  });
}

/** `formward key revoke KEY_ID` */
export async function keyRevoke(config: Config, args: string[]): Promise<void> {
  const id = args[0];
  if (!id) throw new UsageError('key revoke needs KEY_ID');
  await withDatabase(config, async (orm) => {
    const apiKey = await revokeApiKey(orm.em.fork(), id);
    if (!apiKey) throw new UsageError(`no key with id ${id}`);
    await recordOperatorChange(orm, {
      accountId: apiKey.accountId,
      action: 'api_key.revoked',
      targetType: 'api_key',
      targetId: apiKey.id,
      summary: `key “${apiKey.name}” (${apiKey.prefix}…)`,
    });
    printJson({ id: apiKey.id, revoked_at: apiKey.revokedAt!.toISOString() });
  });
}

export async function migrateCommand(config: Config): Promise<void> {
  await withDatabase(config, async () => {
    printJson({ ok: true, migrated: true });
  });
}
