import type http from 'node:http';
import type { Logger } from 'pino';
import type { Orm } from '../db/orm';
import { domainServes } from '../domain/domains/domain-forms';
import { normalizeDomain } from '../domain/domains/verify-domain';

export const TLS_ASK_PATH = '/tls/ask';

/**
 * Caddy's on-demand TLS `ask` (docs/custom-domains.md): `GET /tls/ask?domain=<name>` answers
 * 200 when the name is a claimed custom domain that serves (verified, or failing within its
 * grace), else 404. Served on the internal (metrics) listener only, never the public one.
 */
export function answerTlsAsk(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  deps: { orm: Orm; logger: Logger },
): void {
  const query = new URL(req.url ?? '/', 'http://internal').searchParams;
  const normalized = normalizeDomain(query.get('domain') ?? '');
  const answer = (status: number, text: string) =>
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${text}\n`);
  if (!normalized.ok) return void answer(404, 'not a custom domain');
  domainServes(deps.orm.em.fork(), normalized.domain).then(
    (serves) => answer(serves ? 200 : 404, serves ? 'ok' : 'not a serving custom domain'),
    (error: unknown) => {
      deps.logger.warn({ err: error }, 'the TLS ask could not be answered');
      answer(503, 'unavailable');
    },
  );
}
