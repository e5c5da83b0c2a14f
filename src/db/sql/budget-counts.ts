import type { EntityManager } from '@mikro-orm/postgresql';
import { countOwnerForms, lockAccountOwner } from './account-owners';
import { runStatement, selectRows } from './execute';

/*
 * Counts for the budgets against amplification (docs/security.md, "Budgets against amplification"), taken under a row
 * lock so that two creations at the limit cannot both pass. Call inside a transaction: the
 * lock (FOR NO KEY UPDATE, which ingest's foreign-key checks do not wait for) is held until it
 * ends. The count is a separate statement on purpose: in READ COMMITTED a statement sees the
 * rows committed before it started, so counting after the lock is granted sees what the
 * previous holder inserted.
 */

/**
 * Locks the account's row and its owner, then counts the forms of every account that owner
 * owns (the budget holds per owner, decisions.md §20); the account's own forms are among
 * them, so this count is the tighter of the two.
 */
export async function countFormsUnderLock(em: EntityManager, accountId: string): Promise<number> {
  await runStatement(em, 'select id from accounts where id = ? for no key update', [accountId]);
  const owner = await lockAccountOwner(em, accountId);
  if (owner !== null) return countOwnerForms(em, owner);
  const [row] = await selectRows<{ total: string }>(
    em,
    'select count(*) as total from forms where account_id = ?',
    [accountId],
  );
  return Number(row?.total ?? 0);
}

/** Locks the form's row, then counts its plugins of every type, deleted ones aside. */
export async function countPluginsUnderLock(em: EntityManager, formId: string): Promise<number> {
  await runStatement(em, 'select id from forms where id = ? for no key update', [formId]);
  const [row] = await selectRows<{ total: string }>(
    em,
    'select count(*) as total from plugins where form_id = ? and deleted_at is null',
    [formId],
  );
  return Number(row?.total ?? 0);
}
