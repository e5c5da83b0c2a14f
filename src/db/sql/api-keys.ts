import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from './execute';

/** Sets the key's `last_used_at` to now. */
export async function touchApiKey(em: EntityManager, id: string): Promise<void> {
  await runStatement(em, 'update api_keys set last_used_at = now() where id = ?', [id]);
}

/**
 * Locks the account's row (parallel creations count one after the other), then counts its
 * keys that still work (revoked ones aside). Call inside a transaction.
 */
export async function countActiveKeysUnderLock(
  tx: EntityManager,
  accountId: string,
): Promise<number> {
  await runStatement(tx, 'select id from accounts where id = ? for no key update', [accountId]);
  const [row] = await selectRows<{ total: number }>(
    tx,
    'select count(*)::int as total from api_keys where account_id = ? and revoked_at is null',
    [accountId],
  );
  return row?.total ?? 0;
}
