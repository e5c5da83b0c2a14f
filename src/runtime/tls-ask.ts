import type http from 'node:http';
import type { Logger } from 'pino';
import type { Orm } from '../db/orm';
import { domainMayHaveCertificate } from '../domain/domains/domain-forms';
import { normalizeDomain } from '../domain/domains/verify-domain';

export const TLS_ASK_PATH = '/tls/ask';

/**
 * Caddy's on-demand TLS `ask` (docs/custom-domains.md): `GET /tls/ask?domain=<name>` answers
 * 200 when the name is a claimed custom domain that serves (verified, or failing within its
 * grace), was verified at least 10 minutes ago and has an active form at a slug
 * (domainMayHaveCertificate), else 404. Served on the internal (metrics) listener only, never
 * the public one.
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
  domainMayHaveCertificate(deps.orm.em.fork(), normalized.domain).then(
    (may) => answer(may ? 200 : 404, may ? 'ok' : 'no certificate for this domain (yet)'),
    (error: unknown) => {
      deps.logger.warn({ err: error }, 'the TLS ask could not be answered');
      answer(503, 'unavailable');
    },
  );
}
