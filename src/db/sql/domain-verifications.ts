import type { EntityManager } from '@mikro-orm/postgresql';
import { lockAccountOwner } from './account-owners';
import { runStatement, selectRows } from './execute';

/**
 * The ledger of domain verifications (migration DomainVerifications): no foreign key, so
 * deleting a domain or an account never lowers what its owner verified today.
 */

export type VerificationClaim =
  { ok: true } | { ok: false; count: number; retryAfterSeconds: number };

/**
 * Records one verification by the account, when its owning user (summed over the accounts
 * they own, decisions.md §20; the account itself when it has no owner) verified fewer than
 * `perDay` domains in the last 24 hours; else says how many and when the oldest of them
 * leaves the window. Counted under the owner's transaction-scoped advisory lock
 * (account-owners.ts): two verifications at once are decided one after the other. Run it in
 * a transaction. `perDay` 0: no cap (still recorded).
 */
export async function claimDomainVerification(
  tx: EntityManager,
  entry: { accountId: string; domain: string },
  perDay: number,
): Promise<VerificationClaim> {
  const owner = await lockAccountOwner(tx, entry.accountId);
  const [row] = await selectRows<{ total: number; wait: number | null }>(
    tx,
    `select count(*)::int as total,
            ceil(extract(epoch from min(verified_at) + interval '1 day' - now()))::int as wait
       from domain_verifications
      where (owner_user_id = ?::bigint or account_id = ?)
        and verified_at > now() - interval '1 day'`,
    [owner, entry.accountId],
  );
  const count = row?.total ?? 0;
  if (perDay > 0 && count >= perDay)
    return { ok: false, count, retryAfterSeconds: Math.max(1, row?.wait ?? 1) };
  await runStatement(
    tx,
    'insert into domain_verifications (owner_user_id, account_id, domain) values (?, ?, ?)',
    [owner, entry.accountId, entry.domain],
  );
  return { ok: true };
}
