import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKey, User } from '../../db/entities';
import { countActiveKeysUnderLock, touchApiKey } from '../../db/sql/api-keys';
import { apiKeyLimitReached, withinBudget } from '../budgets/limit-reached';
import { isScope, type Scope } from './scopes';
import { randomToken, sha256Hex } from './secrets';

export const API_KEY_PREFIX = 'frk_';

export type CreatedApiKey = { id: string; key: string; apiKey: ApiKey };

/**
 * Issues a key: `frk_` + 32 random bytes; only its hash is stored, the key is returned once.
 * An account holds at most `maxPerAccount` keys that work (MAX_API_KEYS_PER_ACCOUNT, revoked
 * ones aside; 0: no limit): past it, LimitReachedError (the dashboard shows it, the CLI says it).
 */
export async function createApiKey(
  em: EntityManager,
  input: {
    accountId: string;
    scopes: Scope[];
    role: string | null;
    name?: string;
    /** The dashboard user creating it; none for the CLI. */
    createdByUserId?: string | null;
  },
  maxPerAccount: number,
): Promise<CreatedApiKey> {
  return em.transactional(async (tx) => {
    const count = await countActiveKeysUnderLock(tx, input.accountId);
    if (!withinBudget(count, maxPerAccount)) throw apiKeyLimitReached(count, maxPerAccount);
    return issueKey(tx, input);
  });
}

async function issueKey(
  em: EntityManager,
  input: Parameters<typeof createApiKey>[1],
): Promise<CreatedApiKey> {
  const key = `${API_KEY_PREFIX}${randomToken(32)}`;
  const apiKey = em.create(ApiKey, {
    accountId: input.accountId,
    name: input.name ?? (input.role ? `${input.role} key` : 'API key'),
    prefix: key.slice(0, 12),
    keyHash: sha256Hex(key),
    scopes: [...new Set(input.scopes)],
    role: input.role,
    lastUsedAt: null,
    revokedAt: null,
    createdByUserId: input.createdByUserId ?? null,
  });
  await em.flush();
  return { id: apiKey.id, key, apiKey };
}

/** The active key matching a presented bearer token, or null. */
export async function findActiveApiKey(
  em: EntityManager,
  presented: string,
): Promise<ApiKey | null> {
  if (!presented.startsWith(API_KEY_PREFIX)) return null;
  return em.findOne(ApiKey, { keyHash: sha256Hex(presented), revokedAt: null });
}

export async function revokeApiKey(em: EntityManager, id: string): Promise<ApiKey | null> {
  if (!/^\d+$/.test(id)) return null;
  const apiKey = await em.findOne(ApiKey, { id });
  if (!apiKey) return null;
  apiKey.revokedAt ??= new Date();
  await em.flush();
  return apiKey;
}

/** The account's keys that still work, newest first (the dashboard's list). */
export function listActiveApiKeys(em: EntityManager, accountId: string): Promise<ApiKey[]> {
  return em.find(
    ApiKey,
    { accountId, revokedAt: null },
    { orderBy: { createdAt: 'desc', id: 'desc' } },
  );
}

/** The e-mail of each key's creator, by key id (keys made with the CLI have none). */
export async function keyCreators(
  em: EntityManager,
  keys: readonly ApiKey[],
): Promise<Map<string, string>> {
  const ids = [...new Set(keys.flatMap((key) => key.createdByUserId ?? []))];
  const users = ids.length ? await em.find(User, { id: { $in: ids } }) : [];
  const emails = new Map(users.map((user) => [user.id, user.email]));
  const creators = new Map<string, string>();
  for (const key of keys) {
    const email = key.createdByUserId ? emails.get(key.createdByUserId) : undefined;
    if (email) creators.set(key.id, email);
  }
  return creators;
}

/**
 * Revokes one of the account's keys: from now on it is refused (401 invalid_api_key).
 * Another account's key, or one already revoked, is "not found" (null).
 */
export async function revokeAccountApiKey(
  em: EntityManager,
  accountId: string,
  id: string,
): Promise<ApiKey | null> {
  if (!/^\d+$/.test(id)) return null;
  const apiKey = await em.findOne(ApiKey, { id, accountId, revokedAt: null });
  if (!apiKey) return null;
  apiKey.revokedAt = new Date();
  await em.flush();
  return apiKey;
}

/** Records when a key was last used, at most once a minute and off the request's path. */
export function recordApiKeyUse(em: EntityManager, apiKey: ApiKey): void {
  const lastUsedAt = apiKey.lastUsedAt ?? null;
  if (lastUsedAt && Date.now() - lastUsedAt.getTime() < 60_000) return;
  touchApiKey(em, apiKey.id).catch(() => undefined);
}

export function scopesOf(apiKey: ApiKey): Scope[] {
  return apiKey.scopes.filter(isScope);
}
