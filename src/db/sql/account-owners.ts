import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from './execute';

/*
 * The owning user of accounts, for the budgets that hold per owner summed over the accounts
 * they own (decisions.md §20: a second account never doubles a budget). Every check of such
 * a budget takes the owner's transaction-scoped advisory lock first and counts in a later
 * statement (in READ COMMITTED a statement sees what was committed before it started), so
 * two spends in two accounts of one owner are decided one after the other.
 */

// Any constant: the advisory lock namespace of owning users ("ow").
const LOCK_OWNER = 0x6f77;

/** Takes the owner's lock until the transaction `tx` ends. */
export async function lockOwner(tx: EntityManager, userId: string): Promise<void> {
  await selectRows(tx, 'select pg_advisory_xact_lock(?, hashtext(?))', [LOCK_OWNER, userId]);
}

/** The user who owns the account (there is one), or null for an account that is gone. */
export async function findAccountOwner(
  em: EntityManager,
  accountId: string,
): Promise<string | null> {
  const [row] = await selectRows<{ user_id: string }>(
    em,
    `select user_id::text as user_id from memberships where account_id = ? and role = 'owner'`,
    [accountId],
  );
  return row?.user_id ?? null;
}

/**
 * Takes the lock of the account's owner and returns the owner, or null when the account has
 * none (gone). Looked up again once locked: a transfer in between moves the lock along.
 */
export async function lockAccountOwner(
  tx: EntityManager,
  accountId: string,
): Promise<string | null> {
  let owner = await findAccountOwner(tx, accountId);
  while (owner !== null) {
    await lockOwner(tx, owner);
    const now = await findAccountOwner(tx, accountId);
    if (now === owner) return owner;
    owner = now;
  }
  return null;
}

/** How many accounts the user owns. */
export async function countOwnedAccounts(em: EntityManager, userId: string): Promise<number> {
  const [row] = await selectRows<{ total: number }>(
    em,
    `select count(*)::int as total from memberships where user_id = ? and role = 'owner'`,
    [userId],
  );
  return row?.total ?? 0;
}

/** The forms of every account the user owns. */
export async function countOwnerForms(em: EntityManager, userId: string): Promise<number> {
  const [row] = await selectRows<{ total: number }>(
    em,
    `select count(*)::int as total from forms f
       join memberships m on m.account_id = f.account_id and m.role = 'owner'
      where m.user_id = ?`,
    [userId],
  );
  return row?.total ?? 0;
}
