import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from './execute';

/**
 * Takes `count` messages from the account's budget for the current hour, all or none, in
 * one statement (atomic across processes): true when they fit within `perHour`.
 */
export async function takeHourlyMail(
  em: EntityManager,
  accountId: string,
  count: number,
  perHour: number,
): Promise<boolean> {
  const rows = await selectRows<{ sent: number }>(
    em,
    `insert into account_mail_hours as h (account_id, hour, sent)
     select ?, date_trunc('hour', now()), ? where ? <= ?
     on conflict (account_id, hour) do update set sent = h.sent + excluded.sent
      where h.sent + excluded.sent <= ?
     returning h.sent`,
    [accountId, count, count, perHour, perHour],
  );
  return rows.length > 0;
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
