import type { EntityManager } from '@mikro-orm/postgresql';
import {
  listSubmissions,
  type SubmissionFilter,
} from '../../domain/submissions/submission-queries';
import { itemsBudget } from '../kit/answers/list-byte-budget';
import { encodeCursor, type ListCursor } from '../kit/answers/list-cursor';
import type { Page } from '../kit/answers/pagination';

/**
 * The byte budget of a list answer split for the rows (list-byte-budget.ts), measured in SQL
 * here: each row's view adds up to ROW_VIEW_BYTES to its measured columns. The dashboard's
 * pages use the same budget, so they list the same pages.
 */
const ROW_VIEW_BYTES = 1024;

/**
 * One page of submissions for the API and the dashboard: by page number, or right after a
 * cursor's row (the page number then comes from the cursor). `next` is the cursor after the
 * page's last row (null when none follows); `cut`: the byte budget ended the page early.
 */
export async function submissionListPage(
  em: EntityManager,
  filter: SubmissionFilter,
  request: { page: Page; cursor?: ListCursor },
  listMaxBytes: number,
) {
  const { cursor } = request;
  const page = { ...request.page, ...(cursor && { page: cursor.page }) };
  const result = await listSubmissions(em, filter, {
    perPage: page.perPage,
    offset: (page.page - 1) * page.perPage,
    after: cursor,
    maxBytes: itemsBudget(listMaxBytes),
    rowOverheadBytes: ROW_VIEW_BYTES,
  });
  const last = result.rows.at(-1);
  const next =
    result.more && last
      ? encodeCursor({ page: page.page + 1, createdMicros: last.created_us, id: String(last.id) })
      : null;
  return { ...result, page, next };
}
