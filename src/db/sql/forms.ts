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

/** Where a listed form stands in the list's order (created_at, id), for continuing after it. */
export type FormPosition = { createdMicros: string; id: string };

const AT_MICROS = `(timestamptz 'epoch' + ?::bigint * interval '1 microsecond')`;

/**
 * The ids and positions of one page of the account's forms, newest first (ties by id): from
 * `offset`, or right after `after` (keyset). One row past `limit` tells whether more follow.
 */
export async function selectFormPositions(
  em: EntityManager,
  accountId: string,
  slice: { limit: number; offset: number; after?: FormPosition },
): Promise<{ id: string; created_us: string }[]> {
  const params: unknown[] = [accountId];
  let after = '';
  if (slice.after) {
    after = `and (created_at, id) < (${AT_MICROS}, ?::bigint)`;
    params.push(slice.after.createdMicros, slice.after.id);
  }
  params.push(slice.limit + 1, slice.after ? 0 : slice.offset);
  return selectRows<{ id: string; created_us: string }>(
    em,
    `select id::text as id, (extract(epoch from created_at) * 1000000)::bigint::text as created_us
       from forms where account_id = ? ${after}
      order by created_at desc, id desc limit ? offset ?`,
    params,
  );
}
