import { z } from 'zod';
import type { ListMeta } from './envelope';
import { link, type Link } from './links';

export const DEFAULT_PER_PAGE = 50;
export const MAX_PER_PAGE = 500;

/** Far past any real list (the submission lists stop at 500 results), and a safe SQL offset. */
export const MAX_PAGE_NUMBER = 1_000_000;

const positiveInt = (name: string) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be an integer >= 1`)
    .transform(Number)
    .refine((n) => n >= 1, `${name} must be an integer >= 1`);

export const paginationQuery = z.object({
  page: positiveInt('page')
    .refine((n) => n <= MAX_PAGE_NUMBER, `page must be at most ${MAX_PAGE_NUMBER}`)
    .optional()
    .describe('page number, an integer >= 1 (default 1)'),
  per_page: positiveInt('per_page')
    .optional()
    .describe(
      `page size, an integer >= 1 (default ${DEFAULT_PER_PAGE}; above ${MAX_PER_PAGE} is clamped and \`meta\` says so)`,
    ),
});

export type PageQuery = z.output<typeof paginationQuery>;

export type Page = { page: number; perPage: number; clamped: boolean; requestedPerPage: number };

export function toPage(query: PageQuery): Page {
  const requested = query.per_page ?? DEFAULT_PER_PAGE;
  return {
    page: query.page ?? 1,
    perPage: Math.min(requested, MAX_PER_PAGE),
    clamped: requested > MAX_PER_PAGE,
    requestedPerPage: requested,
  };
}

/**
 * How a page continues by keyset instead of page number: `self` is the cursor the request
 * came with (if any), `next` the cursor after the page's last item (null when none follows),
 * `maxBytes` set when the byte budget cut the page short.
 */
export type KeysetPage = { self?: string; next: string | null; maxBytes?: number };

/** `meta` and the self/first/last/next/prev links of a list page (docs/api-conventions.md, Envelopes). */
export function pageMetaAndLinks(
  baseHref: string,
  params: URLSearchParams,
  page: Page,
  total: number,
  keyset?: KeysetPage,
): { meta: ListMeta; links: Link[] } {
  const totalPages = Math.max(1, Math.ceil(total / page.perPage));
  const href = (set: Record<string, string>) => {
    const p = new URLSearchParams(params);
    for (const [name, value] of Object.entries(set)) p.set(name, value);
    p.set('per_page', String(page.perPage));
    return `${baseHref}?${p.toString()}`;
  };
  const pageHref = (n: number) => href({ page: String(n) });
  const cursorHref = (cursor: string) => href({ cursor });
  const links = [
    link('self', keyset?.self ? cursorHref(keyset.self) : pageHref(page.page)),
    link('first', pageHref(1)),
    link('last', pageHref(totalPages)),
  ];
  if (keyset) {
    if (keyset.next) links.push(link('next', cursorHref(keyset.next)));
  } else if (page.page < totalPages) links.push(link('next', pageHref(page.page + 1)));
  if (page.page > 1) links.push(link('prev', pageHref(Math.min(page.page - 1, totalPages))));
  const meta: ListMeta = {
    page: page.page,
    per_page: page.perPage,
    total,
    total_pages: totalPages,
  };
  if (page.clamped) {
    meta.per_page_clamped = true;
    meta.max_per_page = MAX_PER_PAGE;
    meta.requested_per_page = page.requestedPerPage;
  }
  if (keyset?.maxBytes !== undefined) {
    meta.truncated = true;
    meta.max_bytes = keyset.maxBytes;
  }
  return { meta, links };
}
