import type { Link } from './types.js';

/*
 * Walking a list (docs/api-conventions.md, Envelopes): every list page carries a `next` link
 * while more follow. It may go on by page number or, once a page was cut short by the answer's
 * byte budget, by an opaque `cursor`; following the link's own query covers both and keeps
 * the list's filters, so nothing is skipped or repeated.
 */

/** The query of a page's `next` link, or null on the last page. */
export function nextQuery(links: readonly Link[]): Record<string, string> | null {
  const next = links.find((link) => link.rel === 'next');
  if (!next) return null;
  return Object.fromEntries(new URL(next.href, 'http://base.invalid').searchParams);
}

/** Every page from the one `query` asks for, reading each only when the one before is done. */
export async function* pages<Q extends object, P extends { links: Link[] }>(
  read: (query: Q) => Promise<P>,
  query: Q,
): AsyncGenerator<P, void, undefined> {
  let current: Q | null = query;
  while (current) {
    const page: P = await read(current);
    yield page;
    // The link's values are the route's own parameters, as text (the API reads them so).
    current = nextQuery(page.links) as Q | null;
  }
}

/** Every item of every page, in the list's order. */
export async function* items<T>(
  walk: AsyncIterable<{ payload: T[] }>,
): AsyncGenerator<T, void, undefined> {
  for await (const page of walk) yield* page.payload;
}
