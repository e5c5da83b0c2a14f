import { Router } from 'express';
import type { AppContext } from '../../app-context';
import { normalizeDomain, verifyDomain } from '../../domain/domains/verify-domain';
import { spamMetrics } from '../../domain/stats/spam-metrics';
import { validationFailed } from '../http-error';
import { link } from '../links';
import { methodNotAllowed } from '../middleware/errors';
import { verifyDomainQuery } from '../schemas/public';
import { parseOrThrow } from '../validate';

/** The two unauthenticated API endpoints. */
export function publicRouter(ctx: AppContext): Router {
  const router = Router();

  router
    .route('/api/public/spam_metrics')
    .get(async (req, res) => {
      const metrics = await spamMetrics(req.em);
      res.setHeader('Cache-Control', 'public, max-age=60');
      res.json({
        ok: true,
        ...metrics,
        links: [link('self', `${ctx.urls.base}/api/public/spam_metrics`)],
      });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/api/public/verify_domain')
    .get(async (req, res) => {
      const query = parseOrThrow(verifyDomainQuery, req.query, 'query');
      const normalized = normalizeDomain(query.domain);
      if (!normalized.ok) throw validationFailed([`domain: ${normalized.error}`]);
      const result = await verifyDomain(normalized.domain, {
        resolver: ctx.resolver,
        ingestHost: new URL(ctx.urls.ingest).hostname,
        appSecret: ctx.appSecret,
      });
      res.json({
        ok: true,
        ...result,
        links: [
          link(
            'self',
            `${ctx.urls.base}/api/public/verify_domain?domain=${encodeURIComponent(normalized.domain)}`,
          ),
        ],
      });
    })
    .all(methodNotAllowed(['GET']));

  return router;
}
