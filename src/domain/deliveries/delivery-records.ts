import type { EntityManager } from '@mikro-orm/postgresql';
import {
  countAttempts,
  selectAttempts,
  type AttemptFilter,
  type AttemptPosition,
  type AttemptRow,
} from '../../db/sql/delivery-attempts';

export type { AttemptPosition, AttemptRow } from '../../db/sql/delivery-attempts';

/**
 * One page of attempts of a submission or a plugin, newest first, within one account: from
 * the page's offset, or right after `after` (keyset, where a log cut short by its byte budget
 * goes on). Each attempt comes with its position; `more`: attempts follow the page's last one.
 */
export async function listAttempts(
  em: EntityManager,
  filter: AttemptFilter,
  slice: { page: number; perPage: number; after?: AttemptPosition },
): Promise<{
  rows: { attempt: AttemptRow; position: AttemptPosition }[];
  total: number;
  more: boolean;
}> {
  const offset = (slice.page - 1) * slice.perPage;
  // One row past the page tells whether more follow.
  const [listed, total] = await Promise.all([
    selectAttempts(em, filter, { limit: slice.perPage + 1, offset, after: slice.after }),
    countAttempts(em, filter),
  ]);
  const rows = listed.slice(0, slice.perPage).map(({ started_us, ...attempt }) => ({
    attempt,
    position: { createdMicros: started_us, id: String(attempt.id) },
  }));
  return { rows, total, more: listed.length > slice.perPage };
}
