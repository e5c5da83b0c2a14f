import { checkDomain, type DomainCheck } from '../../domain/domains/domain-check';
import { claimValueOf } from '../../domain/domains/domain-checks';
import { findDomainClaim } from '../../domain/domains/domains';
import { normalizeDomain } from '../../domain/domains/verify-domain';
import { spamMetrics } from '../../domain/stats/spam-metrics';
import { domainCheckRefusal } from './domain-check-limits';
import { validationFailed } from '../kit/errors/http-error';
import { clientAddress } from '../kit/middleware/client-address';
import { rateLimitSubject } from '../ingest/rate-limit-key';
import { link } from '../kit/answers/links';
import { defineRoute, type RouteContext } from '../kit/routing/define-route';
import { TtlCache } from './ttl-cache';
import { verifyDomainQuery } from './public-schemas';
import { domainVerificationSchema, spamMetricsSchema } from './public-view';

const VERIFY_DOMAIN_CACHE_MS = 30_000;
const SPAM_METRICS_CACHE_MS = 60_000;

type Metrics = Awaited<ReturnType<typeof spamMetrics>>;

/** One cache set per running server (its context). */
const perServer = new WeakMap<
  RouteContext,
  { domains: TtlCache<DomainCheck>; metrics: TtlCache<Metrics> }
>();
function stateOf(ctx: RouteContext) {
  let state = perServer.get(ctx);
  if (!state) {
    state = {
      domains: new TtlCache(VERIFY_DOMAIN_CACHE_MS),
      metrics: new TtlCache(SPAM_METRICS_CACHE_MS, 1),
    };
    perServer.set(ctx, state);
  }
  return state;
}

/** The two unauthenticated API endpoints. */
export const publicRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/public/spam_metrics',
    operationId: 'getSpamMetrics',
    tag: 'Public',
    summary: 'Platform spam metrics',
    description:
      'Aggregates over every account; nothing identifies an account. Computed at most once a ' +
      'minute per server and cached 60 s.',
    access: 'public',
    responses: { 200: { description: 'the metrics', body: spamMetricsSchema } },
    errors: [],
  }).handle(async ({ req }, ctx) => {
    // A fork of its own: the cached computation may outlive the request that started it.
    const metrics = await stateOf(ctx).metrics.get('all', () => spamMetrics(req.em.fork()));
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
      'Looks up the records a custom domain needs (docs/custom-domains.md): the TXT ' +
      "`_formward.{domain}` with the claiming account's value (never naming the account; " +
      '`expected` is null while no account holds the domain) and a CNAME to FORM_PAGES_TARGET ' +
      'or A/AAAA records with its addresses. A result is kept 30 s, so a change shows up ' +
      'after that. `verified: false` is still a 200: the check ran, `present` and `missing` say what is there and what to ' +
      'add. The answer says per record whether it is present and right, and whether the domain ' +
      'points at FORM_PAGES_TARGET (`points_at_target`), never the values found (no addresses, ' +
      'CNAME targets or TXT values). Internal names (`.local`, `.internal`, `.localhost`, ' +
      'single labels …) are refused with 422. Each check counts, per client network (an IPv4 ' +
      "address, an IPv6 /64), in DNS_CHECK_RATE_NETWORK a minute and in the whole service's " +
      'DNS_CHECK_RATE_INSTANCE; past either, 429 `rate_limited` with `Retry-After`.',
    access: 'public',
    query: verifyDomainQuery,
    responses: {
      200: { description: 'the verification result', body: domainVerificationSchema },
    },
    errors: ['rate_limited'],
  }).handle(async ({ req, query }, ctx) => {
    const state = stateOf(ctx);
    await ctx.domainChecks.dnsChecks
      .spendForNetwork(rateLimitSubject(clientAddress(req)))
      .catch((error: unknown) => {
        throw domainCheckRefusal(error);
      });
    const normalized = normalizeDomain(query.domain);
    if (!normalized.ok) throw validationFailed([`domain: ${normalized.error}`]);
    const claim = await findDomainClaim(req.em, normalized.domain);
    const expectedTxt = claim ? claimValueOf(ctx, claim) : null;
    // Keyed by the claim too: a claim made meanwhile changes the expected value at once.
    const key = `${normalized.domain} ${claim?.id ?? ''}`;
    const result = await state.domains.get(key, () =>
      checkDomain(normalized.domain, {
        resolver: ctx.resolver,
        target: ctx.domainChecks.target(),
        expectedTxt,
      }),
    );
    const self = `${ctx.urls.base}/api/public/verify_domain?domain=${encodeURIComponent(normalized.domain)}`;
    return { status: 200, body: { ok: true, ...result, links: [link('self', self)] } };
  }),
];
