import { normalizeDomain, verifyDomain } from '../../domain/domains/verify-domain';
import { spamMetrics } from '../../domain/stats/spam-metrics';
import { validationFailed } from '../http-error';
import { link } from '../links';
import { defineRoute } from '../routing/define-route';
import { verifyDomainQuery } from '../schemas/public';
import { domainVerificationSchema, spamMetricsSchema } from '../views/public-view';

/** The two unauthenticated API endpoints. */
export const publicRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/public/spam_metrics',
    operationId: 'getSpamMetrics',
    tag: 'Public',
    summary: 'Platform spam metrics',
    description: 'Aggregates over every account; nothing identifies an account. Cached 60 s.',
    access: 'public',
    responses: { 200: { description: 'the metrics', body: spamMetricsSchema } },
    errors: [],
  }).handle(async ({ req }, ctx) => {
    const metrics = await spamMetrics(req.em);
    return {
      status: 200,
      body: {
        ok: true,
        ...metrics,
        links: [link('self', `${ctx.urls.base}/api/public/spam_metrics`)],
      },
      headers: { 'Cache-Control': 'public, max-age=60' },
    };
  }),
  defineRoute({
    method: 'get',
    path: '/api/public/verify_domain',
    operationId: 'verifyDomain',
    tag: 'Public',
    summary: 'Check the DNS of a custom form-page domain',
    description:
      'Looks up the CNAME and TXT records now. `verified: false` is still a 200: the check ' +
      'ran and `missing` says what to add.',
    access: 'public',
    query: verifyDomainQuery,
    responses: {
      200: { description: 'the verification result', body: domainVerificationSchema },
    },
    errors: [],
  }).handle(async ({ query }, ctx) => {
    const normalized = normalizeDomain(query.domain);
    if (!normalized.ok) throw validationFailed([`domain: ${normalized.error}`]);
    const result = await verifyDomain(normalized.domain, {
      resolver: ctx.resolver,
      ingestHost: new URL(ctx.urls.ingest).hostname,
      appSecret: ctx.appSecret,
    });
    const self = `${ctx.urls.base}/api/public/verify_domain?domain=${encodeURIComponent(normalized.domain)}`;
    return { status: 200, body: { ok: true, ...result, links: [link('self', self)] } };
  }),
];
