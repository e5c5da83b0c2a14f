import type { EntityManager } from '@mikro-orm/postgresql';
import { lockAccountOwner } from './account-owners';
import { runStatement, selectRows } from './execute';

/** The two counters of uploaded bytes: one row per form, one per account. */
export type UsageScope = 'form' | 'account';

const TABLES: Record<UsageScope, { table: string; key: string }> = {
  form: { table: 'form_file_usage', key: 'form_id' },
  account: { table: 'account_file_usage', key: 'account_id' },
};

/**
 * Reservations are held for one upload's write, seconds to minutes. A row whose last
 * reservation is older than this was left by a process that stopped mid-upload: its
 * reserved bytes are forgotten at the next reservation instead of shrinking the quota.
 */
const STALE_RESERVATION = `interval '1 hour'`;
const liveReserved = (row: string) =>
  `case when ${row}.reserved_at < now() - ${STALE_RESERVATION} then 0 else ${row}.reserved_bytes end`;
const LIVE_RESERVED = liveReserved('u');

/**
 * Reserves `bytes` on one counter when what is kept, what is reserved and `bytes` stay
 * within `limitBytes` (0: no limit): one atomic statement (the row is created on first use),
 * so concurrent uploads never pass the limit together and no lock outlives the statement.
 * Run it outside a transaction. False: refused, nothing reserved.
 */
export async function reserveUsage(
  em: EntityManager,
  scope: UsageScope,
  ownerId: string,
  bytes: number,
  limitBytes: number,
): Promise<boolean> {
  if (limitBytes > 0 && bytes > limitBytes) return false;
  const { table, key } = TABLES[scope];
  const rows = await selectRows<{ owner: string }>(
    em,
    `insert into ${table} as u (${key}, reserved_bytes) values (?, ?)
     on conflict (${key}) do update
       set reserved_bytes = ${LIVE_RESERVED} + excluded.reserved_bytes, reserved_at = now()
       where ?::bigint <= 0
          or u.used_bytes + ${LIVE_RESERVED} + excluded.reserved_bytes <= ?::bigint
     returning u.${key} as owner`,
    [ownerId, bytes, limitBytes, limitBytes],
  );
  return rows.length > 0;
}

/**
 * Reserves `bytes` on the account's counter when they fit within `limitBytes` (0: no limit)
 * both for the account and summed over every account of its owner (decisions.md §20: a
 * second account never doubles the quota). The sum spans rows of several accounts, so it is
 * taken under the owner's lock (account-owners.ts) in a short transaction of its own, ended
 * before any file is written; the conditional upsert keeps the account's own check atomic.
 * Run it outside a transaction. False: refused, nothing reserved.
 */
export async function reserveAccountUsage(
  em: EntityManager,
  accountId: string,
  bytes: number,
  limitBytes: number,
): Promise<boolean> {
  if (limitBytes <= 0) return reserveUsage(em, 'account', accountId, bytes, limitBytes);
  if (bytes > limitBytes) return false;
  return em.transactional(async (tx) => {
    const owner = await lockAccountOwner(tx, accountId);
    const rows = await selectRows<{ owner: string }>(
      tx,
      `insert into account_file_usage as u (account_id, reserved_bytes)
       select ?, ? where ?::bigint + (
         select coalesce(sum(o.used_bytes + ${liveReserved('o')}), 0) from account_file_usage o
           join memberships m on m.account_id = o.account_id and m.role = 'owner'
          where m.user_id = ?) <= ?::bigint
       on conflict (account_id) do update
         set reserved_bytes = ${LIVE_RESERVED} + excluded.reserved_bytes, reserved_at = now()
         where u.used_bytes + ${LIVE_RESERVED} + excluded.reserved_bytes <= ?::bigint
       returning u.account_id as owner`,
      [accountId, bytes, bytes, owner, limitBytes, limitBytes],
    );
    return rows.length > 0;
  });
}

/** Gives back reserved bytes that were not stored (a refused or failed upload). */
export async function releaseUsage(
  em: EntityManager,
  scope: UsageScope,
  ownerId: string,
  bytes: number,
): Promise<void> {
  const { table, key } = TABLES[scope];
  await runStatement(
    em,
    `update ${table} set reserved_bytes = greatest(0, reserved_bytes - ?) where ${key} = ?`,
    [bytes, ownerId],
  );
}

/**
 * Counts `storedBytes` as kept and drops the `reservedBytes` they were reserved as, inside
 * the transaction that inserts the file rows, so both commit together. Run it last in that
 * transaction: the counter row stays locked only until the commit.
 */
export async function settleUsage(
  tx: EntityManager,
  scope: UsageScope,
  ownerId: string,
  change: { storedBytes: number; reservedBytes: number },
): Promise<void> {
  const { table, key } = TABLES[scope];
  await runStatement(
    tx,
    `insert into ${table} as u (${key}, used_bytes) values (?, ?)
     on conflict (${key}) do update
       set used_bytes = u.used_bytes + excluded.used_bytes,
           reserved_bytes = greatest(0, u.reserved_bytes - ?)`,
    [ownerId, change.storedBytes, change.reservedBytes],
  );
}
