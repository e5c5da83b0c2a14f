import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from './execute';

/**
 * Records a challenge as used; false when it already was (a replay). Rows are kept until the
 * challenge expires, after which the signature check refuses it anyway.
 */
export async function markChallengeUsed(
  em: EntityManager,
  signature: string,
  expiresAt: Date,
): Promise<boolean> {
  await runStatement(em, 'delete from altcha_used_challenges where expires_at <= now()');
  const rows = await selectRows<{ signature: string }>(
    em,
    `insert into altcha_used_challenges (signature, expires_at) values (?, ?)
     on conflict (signature) do nothing returning signature`,
    [signature, expiresAt],
  );
  return rows.length === 1;
}
