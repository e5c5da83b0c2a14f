import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKey } from '../../db/entities';
import { recordAuditEvent } from '../audit/audit-log';

/*
 * The API keys a member created, when they leave the account or lose the admin role
 * (docs/teams.md): a key outlives its creator's membership, so it would keep the scopes they
 * no longer have. They are revoked with the change, in its transaction, unless the owner
 * keeps them at a removal; each revocation is its own audit entry.
 */

/** Who made the change, as the audit log records it: the owner, or the member leaving. */
export type KeyRevocationAuthor = {
  userId: string;
  email: string;
  clientAddress: string | null;
};

/** The member's keys in the account that still work, newest first (the removal page). */
export function listMemberKeys(
  em: EntityManager,
  accountId: string,
  userId: string,
): Promise<ApiKey[]> {
  return em.find(
    ApiKey,
    { accountId, createdByUserId: userId, revokedAt: null },
    { orderBy: { createdAt: 'desc', id: 'desc' } },
  );
}

/**
 * Revokes every working key the member created in the account, on `tx` (the membership
 * change's transaction), with an `api_key.revoked` entry per key; returns them.
 */
export async function revokeMemberKeys(
  tx: EntityManager,
  input: { accountId: string; userId: string; reason: string; by: KeyRevocationAuthor },
): Promise<ApiKey[]> {
  const keys = await listMemberKeys(tx, input.accountId, input.userId);
  if (keys.length === 0) return keys;
  const now = new Date();
  for (const key of keys) key.revokedAt = now;
  await tx.flush();
  for (const key of keys)
    await recordAuditEvent(tx, {
      accountId: input.accountId,
      actor: { type: 'user', userId: input.by.userId, label: input.by.email },
      clientAddress: input.by.clientAddress,
      action: 'api_key.revoked',
      targetType: 'api_key',
      targetId: key.id,
      summary: `key “${key.name}” (${key.prefix}…), ${input.reason}`,
    });
  return keys;
}
