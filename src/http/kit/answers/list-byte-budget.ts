/**
 * The byte budget of a list answer (`LIST_MAX_BYTES`; docs/api-conventions.md, Limits), split
 * for its items: a list appears twice in the envelope (`<key>` and `payload`), and the
 * envelope's meta and links take up to LIST_ENVELOPE_BYTES.
 */
export const LIST_ENVELOPE_BYTES = 8 * 1024;

/** The bytes one copy of a page's items may take. */
export const itemsBudget = (listMaxBytes: number) =>
  Math.max(0, Math.floor((listMaxBytes - LIST_ENVELOPE_BYTES) / 2));

/**
 * The views of a page's rows, built one at a time and measured as they are answered (JSON,
 * UTF-8), up to the list's byte budget: the first view always (a client must be able to go
 * on), then each while the page stays within it. `cut`: rows were left for the next page.
 */
export function viewsWithinBudget<R, V>(
  rows: readonly R[],
  view: (row: R) => V,
  listMaxBytes: number,
): { views: V[]; cut: boolean } {
  const budget = itemsBudget(listMaxBytes);
  const views: V[] = [];
  // The list's brackets and commas.
  let bytes = 2;
  for (const row of rows) {
    const built = view(row);
    bytes += Buffer.byteLength(JSON.stringify(built), 'utf8') + (views.length > 0 ? 1 : 0);
    if (views.length > 0 && bytes > budget) return { views, cut: true };
    views.push(built);
  }
  return { views, cut: false };
}
