import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from './execute';

/** How many forms the account has, and how many of them are active. */
export async function countAccountForms(
  em: EntityManager,
  accountId: string,
): Promise<{ total: number; active: number }> {
  const [row] = await selectRows<{ total: string; active: string }>(
    em,
    'select count(*) as total, count(*) filter (where is_active) as active from forms where account_id = ?',
    [accountId],
  );
  return { total: Number(row?.total ?? 0), active: Number(row?.active ?? 0) };
}
