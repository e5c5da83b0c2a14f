import { z } from 'zod';

export const linkSchema = z
  .object({
    rel: z.string().describe('relation: self, form, submissions, next, docs, …'),
    href: z.string().meta({ format: 'uri', description: 'absolute URL' }),
    method: z.string().optional().describe('HTTP method to use, present only when it is not GET'),
  })
  .describe('A hypermedia link. Resources carry the links the caller may use.')
  .meta({ id: 'Link' });

export type Link = z.output<typeof linkSchema>;

/** The `links` of a body or resource (docs/api-conventions.md, Envelopes). */
export const linksSchema = (
  description = 'related resources and the actions this credential may use',
) => z.array(linkSchema).describe(description);

export const link = (rel: string, href: string, method?: string): Link =>
  method && method !== 'GET' ? { rel, href, method } : { rel, href };

/** RFC 8288 `Link` header with the same links as the body. */
export const linkHeader = (links: Link[]): string =>
  links.map((l) => `<${l.href}>; rel="${l.rel}"`).join(', ');
