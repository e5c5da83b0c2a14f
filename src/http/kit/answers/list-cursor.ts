import { z } from 'zod';
import {
  MAX_PAGE_NUMBER,
  paginationQuery,
  toPage,
  type KeysetPage,
  type Page,
  type PageQuery,
} from './pagination';

/**
 * Where a list continues (docs/api-conventions.md, Envelopes): the page number it stands for
 * and the position of the last item already returned in the list's order (its created_at, or
 * a delivery attempt's started_at, in microseconds; then its id). The
 * client treats it as opaque text it copies from a `next` link.
 */
export type ListCursor = { page: number; createdMicros: string; id: string };

/**
 * Page, microseconds, id: digits only, so no sign and no bigint overflow reach SQL. The
 * microseconds stop at the year 9999 and the page at the page parameter's own limit.
 */
const CURSOR_TEXT = /^([1-9]\d{0,6})\.(\d{1,18})\.([1-9]\d{0,17})$/;
const MAX_CREATED_MICROS = 253_402_300_799_999_999n;

export function encodeCursor(cursor: ListCursor): string {
  return Buffer.from(`${cursor.page}.${cursor.createdMicros}.${cursor.id}`).toString('base64url');
}

function decodeCursor(text: string): ListCursor | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  const match = CURSOR_TEXT.exec(Buffer.from(text, 'base64url').toString('latin1'));
  if (!match) return null;
  const page = Number(match[1]);
  if (page > MAX_PAGE_NUMBER || BigInt(match[2]!) > MAX_CREATED_MICROS) return null;
  return { page, createdMicros: match[2]!, id: match[3]! };
}

const CURSOR_PROBLEM = 'not a cursor this API issued; copy it unchanged from a `next` link';

/** The `cursor` query parameter, decoded; a changed or made-up cursor fails validation. */
export const cursorQueryParameter = z
  .string()
  .max(100, CURSOR_PROBLEM)
  .transform((text, ctx) => {
    const cursor = decodeCursor(text);
    if (cursor) return cursor;
    ctx.addIssue({ code: 'custom', message: CURSOR_PROBLEM });
    return z.NEVER;
  })
  .optional()
  .describe(
    'continue a list right after the last item of the previous answer; take it from the ' +
      '`next` link (opaque; `page` is ignored when it is given)',
  );

/** A list's query that can go on by cursor: page, per_page and cursor. */
export const cursorListQuery = paginationQuery.extend({ cursor: cursorQueryParameter });

export type CursorListQuery = z.output<typeof cursorListQuery>;

/** The page a list request reads: its page number, or the one its cursor stands for. */
export function cursorPage(query: PageQuery & { cursor?: ListCursor }): Page {
  const page = toPage(query);
  return query.cursor ? { ...page, page: query.cursor.page } : page;
}

/** Where an item stands in its list's order: a cursor without its page number. */
export type ListPosition = Omit<ListCursor, 'page'>;

/**
 * How a page whose items `viewsWithinBudget` chose goes on (pagination.ts, KeysetPage): by
 * keyset once the byte budget cut it short or the request came with a cursor, right after
 * `last` (the last item answered); by page number otherwise (undefined). `more`: items
 * followed the page's rows.
 */
export function budgetKeyset(
  request: { page: Page; cursor?: ListCursor },
  listed: { last?: ListPosition; cut: boolean; more: boolean },
  maxBytes: number,
): KeysetPage | undefined {
  const { page, cursor } = request;
  if (!cursor && !listed.cut) return undefined;
  const next =
    (listed.cut || listed.more) && listed.last
      ? encodeCursor({ page: page.page + 1, ...listed.last })
      : null;
  return { self: cursor && encodeCursor(cursor), next, ...(listed.cut && { maxBytes }) };
}
