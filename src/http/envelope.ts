import type { Response } from 'express';
import type { Link } from './links';

export type ListMeta = {
  page: number;
  per_page: number;
  total: number;
  total_pages: number;
} & Record<string, unknown>;

/**
 * Decisions §2: both envelope variants at once, `{ok, <key>, payload, links}`, so clients
 * written against either variant of the specification work.
 */
export function sendEnvelope(
  res: Response,
  key: string,
  value: unknown,
  links: Link[],
  options: { status?: number; meta?: ListMeta } = {},
): void {
  const body: Record<string, unknown> = { ok: true, [key]: value, payload: value };
  if (options.meta) body.meta = options.meta;
  body.links = links;
  res.status(options.status ?? 200).json(body);
}

/** RFC 8288 `Link` header with the same links as the body. */
export function setLinkHeader(res: Response, links: Link[]): void {
  const value = links.map((l) => `<${l.href}>; rel="${l.rel}"`).join(', ');
  if (value) res.setHeader('Link', value);
}
