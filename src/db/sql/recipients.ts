import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from './execute';

/** Where an address stands with an account (docs/security.md, "Recipients and mail"). */
export type RecipientStateRow = {
  address: string;
  /** Not unsubscribed, and confirmed by its link or an own confirmed user's address. */
  confirmed: boolean;
  /** A confirmation request of this account is out and its link still works. */
  pending: boolean;
};

/** The state of each address (lower case) for this account, in one query. */
export async function recipientStates(
  em: EntityManager,
  accountId: string,
  addresses: readonly string[],
): Promise<RecipientStateRow[]> {
  if (addresses.length === 0) return [];
  const rows = await selectRows<RecipientStateRow>(
    em,
    `select a.address,
            rc.unsubscribed_at is null and (rc.confirmed_at is not null or exists (
              select 1 from memberships m join users u on u.id = m.user_id
               where m.account_id = ? and lower(u.email) = a.address
                 and u.email_confirmed_at is not null)) as confirmed,
            coalesce(rc.token_expires_at > now(), false) as pending
       from jsonb_array_elements_text(?::jsonb) with ordinality as a(address, n)
       left join recipient_confirmations rc on rc.account_id = ? and rc.address = a.address
      order by a.n`,
    [accountId, JSON.stringify(addresses), accountId],
  );
  return rows.map((row) => ({ ...row, confirmed: row.confirmed === true }));
}

/**
 * Claims the day's one confirmation request to an address, across all accounts: true when
 * none went out in the last 24 hours (and records this one), in one statement.
 */
export async function claimDailyRequest(em: EntityManager, address: string): Promise<boolean> {
  const changed = await runStatement(
    em,
    `insert into recipient_requests as r (address, last_sent_at) values (?, now())
     on conflict (address) do update set last_sent_at = now()
      where r.last_sent_at <= now() - interval '1 day'`,
    [address],
  );
  return changed > 0;
}

/** Stores the hash of a new confirmation token for (account, address); an older one stops working. */
export async function storeConfirmationToken(
  em: EntityManager,
  row: { accountId: string; address: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await runStatement(
    em,
    `insert into recipient_confirmations as rc (account_id, address, token_hash, token_expires_at)
     values (?, ?, ?, ?)
     on conflict (account_id, address) do update
       set token_hash = excluded.token_hash, token_expires_at = excluded.token_expires_at`,
    [row.accountId, row.address, row.tokenHash, row.expiresAt],
  );
}

/** The (account, address) of a live confirmation token, without using it up. */
export async function findConfirmationToken(
  em: EntityManager,
  tokenHash: string,
): Promise<{ accountId: string; address: string } | null> {
  const [row] = await selectRows<{ account_id: string; address: string }>(
    em,
    `select account_id::text, address from recipient_confirmations
      where token_hash = ? and token_expires_at > now()`,
    [tokenHash],
  );
  return row ? { accountId: row.account_id, address: row.address } : null;
}

/**
 * Confirms the address of a live token and drops the token, in one statement (a second use
 * finds nothing): returns what it confirmed.
 */
export async function takeConfirmationToken(
  em: EntityManager,
  tokenHash: string,
): Promise<{ accountId: string; address: string } | null> {
  const [row] = await selectRows<{ account_id: string; address: string }>(
    em,
    `update recipient_confirmations
        set confirmed_at = now(), unsubscribed_at = null, token_hash = null, token_expires_at = null
      where token_hash = ? and token_expires_at > now()
      returning account_id::text, address`,
    [tokenHash],
  );
  return row ? { accountId: row.account_id, address: row.address } : null;
}

/** Marks (account, address) confirmed, as following its link does. */
export async function upsertConfirmed(
  em: EntityManager,
  accountId: string,
  address: string,
): Promise<void> {
  await runStatement(
    em,
    `insert into recipient_confirmations (account_id, address, confirmed_at) values (?, ?, now())
     on conflict (account_id, address) do update
       set confirmed_at = now(), unsubscribed_at = null, token_hash = null, token_expires_at = null`,
    [accountId, address],
  );
}

/** The address takes no more of this account's mail until it confirms again. */
export async function upsertUnsubscribed(
  em: EntityManager,
  accountId: string,
  address: string,
): Promise<void> {
  await runStatement(
    em,
    `insert into recipient_confirmations (account_id, address, unsubscribed_at)
     select ?, ?, now() where exists (select 1 from accounts where id = ?)
     on conflict (account_id, address) do update
       set confirmed_at = null, unsubscribed_at = coalesce(recipient_confirmations.unsubscribed_at, now()),
           token_hash = null, token_expires_at = null`,
    [accountId, address, accountId],
  );
}
