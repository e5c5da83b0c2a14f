import type { EntityManager } from '@mikro-orm/postgresql';
import {
  countAttempts,
  selectAttempts,
  type AttemptFilter,
  type AttemptRow,
} from '../../db/sql/delivery-attempts';

export type { AttemptRow } from '../../db/sql/delivery-attempts';

/** One page of attempts of a submission or a plugin, newest first, within one account. */
export async function listAttempts(
  em: EntityManager,
  filter: AttemptFilter,
  page: { page: number; perPage: number },
): Promise<{ rows: AttemptRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    selectAttempts(em, filter, page),
    countAttempts(em, filter),
  ]);
  return { rows, total };
}
