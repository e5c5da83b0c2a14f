import type { EntityManager } from '@mikro-orm/postgresql';
import { lockAccountOwner } from './account-owners';
import { selectRows } from './execute';

/**
 * Takes `count` messages from the account's budget for the current hour, all or none: true
 * when they fit within `perHour`, both for the account and summed over every account of its
 * owner (decisions.md §20). Under the owner's lock (account-owners.ts), so spends in two of
 * the owner's accounts are decided one after the other; the conditional upsert keeps the
 * account's own count atomic as before.
 */
export async function takeHourlyMail(
  em: EntityManager,
  accountId: string,
  count: number,
  perHour: number,
): Promise<boolean> {
  return em.transactional(async (tx) => {
    const owner = await lockAccountOwner(tx, accountId);
    const rows = await selectRows<{ sent: number }>(
      tx,
      `insert into account_mail_hours as h (account_id, hour, sent)
       select ?, date_trunc('hour', now()), ? where ? <= ?
          and ? + (select coalesce(sum(o.sent), 0) from account_mail_hours o
                     join memberships m on m.account_id = o.account_id and m.role = 'owner'
                    where m.user_id = ? and o.hour = date_trunc('hour', now())) <= ?
       on conflict (account_id, hour) do update set sent = h.sent + excluded.sent
        where h.sent + excluded.sent <= ?
       returning h.sent`,
      [accountId, count, count, perHour, count, owner, perHour, perHour],
    );
    return rows.length > 0;
  });
}

/** True for the first caller of the hour whose budget ran out: that one tells the owner. */
export async function claimOwnerNotice(em: EntityManager, accountId: string): Promise<boolean> {
  const rows = await selectRows<{ owner_told: boolean }>(
    em,
    `insert into account_mail_hours as h (account_id, hour, sent, owner_told)
     values (?, date_trunc('hour', now()), 0, true)
     on conflict (account_id, hour) do update set owner_told = true where not h.owner_told
     returning h.owner_told`,
    [accountId],
  );
  return rows.length > 0;
}

/** The address of the account's owner (the plugin-disabled mail goes there). */
export async function accountOwnerEmail(
  em: EntityManager,
  accountId: string,
): Promise<string | null> {
  const [row] = await selectRows<{ email: string }>(
    em,
    `select u.email from memberships m join users u on u.id = m.user_id
      where m.account_id = ? and m.role = 'owner'`,
    [accountId],
  );
  return row?.email ?? null;
}
