import { z } from 'zod';
import { linkHeader, linksSchema, type Link } from './links';
import { count } from './fields';

export const listMetaSchema = z
  .object({
    page: z.number().int().min(1),
    per_page: z.number().int().min(0).describe('the page size used (after clamping)'),
    total: count('items across all pages'),
    total_pages: z.number().int().min(1),
    per_page_clamped: z.boolean().optional().describe('present when per_page was over the maximum'),
    max_per_page: z.number().int().optional(),
    requested_per_page: z.number().int().optional(),
    truncated: z
      .boolean()
      .optional()
      .describe(
        'present (true) when the page was cut short to stay within max_bytes; `next` continues right after its last item',
      ),
    max_bytes: z.number().int().optional().describe('the byte budget of one list answer'),
  })
  .meta({ id: 'ListMeta' });

export type ListMeta = z.output<typeof listMetaSchema>;

/**
 * Both envelope variants at once, `{ok, <key>, payload, links}`, so clients written against
 * either variant of the specification work; `<key>` and `payload` hold the same value
 * (docs/api/envelopes.md).
 */
export function envelopeSchema<K extends string, V extends z.ZodType>(
  id: string,
  key: K,
  value: V,
) {
  return z
    .object({ ok: z.literal(true) })
    .extend({ [key]: value } as Record<K, V>)
    .extend({ payload: value, links: linksSchema() })
    .describe(`\`${key}\` and \`payload\` carry the same value (both envelope variants at once).`)
    .meta({ id });
}

/** A list page: the envelope plus `meta`, and links self/first/last/next/prev. */
export function listEnvelopeSchema<K extends string, V extends z.ZodType>(
  id: string,
  key: K,
  item: V,
) {
  const list = z.array(item);
  return z
    .object({ ok: z.literal(true) })
    .extend({ [key]: list } as Record<K, typeof list>)
    .extend({
      payload: list,
      meta: listMetaSchema,
      links: linksSchema(
        'self, first, last, and next/prev where they exist (also in the Link header)',
      ),
    })
    .describe(`\`${key}\` and \`payload\` carry the same list.`)
    .meta({ id });
}

/** The body of an envelope; the answer's schema puts its fields in order. */
export function envelope<K extends string, V>(
  key: K,
  value: V,
  links: Link[],
): { ok: true; payload: V; links: Link[] } & Record<K, V> {
  return { ok: true, [key]: value, payload: value, links } as {
    ok: true;
    payload: V;
    links: Link[];
  } & Record<K, V>;
}

/** A list page's body. */
export function listEnvelope<K extends string, V>(
  key: K,
  items: V[],
  page: { meta: ListMeta; links: Link[] },
): { ok: true; payload: V[]; meta: ListMeta; links: Link[] } & Record<K, V[]> {
  return { ...envelope(key, items, page.links), meta: page.meta };
}

/** A list page's 200 answer: the body, and its links again as the `Link` header. */
export function listAnswer<K extends string, V>(
  key: K,
  items: V[],
  page: { meta: ListMeta; links: Link[] },
) {
  return {
    status: 200 as const,
    body: listEnvelope(key, items, page),
    headers: { Link: linkHeader(page.links) },
  };
}
