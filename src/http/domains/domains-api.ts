import type { Request } from 'express';
import type { Principal } from '../../domain/accounts/principal';
import { can } from '../../domain/accounts/principal';
import type { Domain } from '../../domain/entities';
import type { DomainCheck } from '../../domain/domains/domain-check';
import { requiredRecords } from '../../domain/domains/domain-check';
import {
  claimCustomDomain,
  DomainNotClaimableError,
} from '../../domain/domains/claim-custom-domain';
import { claimValueOf } from '../../domain/domains/domain-checks';
import { countDomainForms } from '../../domain/domains/domain-forms';
import { DomainHeldError } from '../../domain/domains/domain-takeover';
import {
  deleteDomain,
  findAccountDomain,
  listAccountDomains,
  MAX_DOMAINS_PER_ACCOUNT,
} from '../../domain/domains/domains';
import { normalizeDomain } from '../../domain/domains/verify-domain';
import { verifyDomainNow } from '../../domain/domains/verify-domain-now';
import { domainCheckRefusal } from './domain-check-limits';
import { envelope, listAnswer } from '../kit/answers/envelope';
import { HttpError, notFound, validationFailed } from '../kit/errors/http-error';
import { link } from '../kit/answers/links';
import { pageMetaAndLinks, paginationQuery, toPage } from '../kit/answers/pagination';
import { defineRoute, type RouteContext } from '../kit/routing/define-route';
import { createDomainBody } from './domains-schemas';
import { LIST_HEADERS } from '../kit/answers/headers';
import { serviceHosts } from '../kit/middleware/service-hosts';
import { domainDeletedSchema, domainEnvelope, domainListEnvelope, domainView } from './domain-view';

/** The domain a path names, of the caller's account; 404 otherwise (another account's too). */
async function domainOf(req: Request, name: string): Promise<Domain> {
  const normalized = normalizeDomain(name);
  const domain = normalized.ok
    ? await findAccountDomain(req.em, req.principal!.accountId, normalized.domain)
    : null;
  if (!domain) throw notFound('domain');
  return domain;
}

/** The Domain resource of one claim, with the records to add and, after a check, their state. */
export async function viewOf(
  req: Request,
  ctx: RouteContext,
  principal: Principal,
  domain: Domain,
  check?: DomainCheck,
) {
  const forms = await countDomainForms(req.em, domain.accountId, [domain.domain]);
  const records = requiredRecords(
    domain.domain,
    claimValueOf(ctx, domain),
    ctx.domainChecks.target(),
  );
  return domainView(
    domain,
    { records, forms: forms.get(domain.domain) ?? 0, check },
    ctx.urls,
    principal,
  );
}

/** `/api/domains`: an account's custom domains for form pages (docs/custom-domains.md). */
export const domainRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/domains',
    operationId: 'listDomains',
    tag: 'Domains',
    summary: 'List custom domains',
    description: `The account's custom domains, by name (at most ${MAX_DOMAINS_PER_ACCOUNT}).`,
    access: 'any',
    query: paginationQuery,
    responses: {
      200: { description: 'the domains', body: domainListEnvelope, headers: LIST_HEADERS },
    },
    errors: [],
  }).handle(async ({ req, query, principal }, ctx) => {
    const page = toPage(query);
    const all = await listAccountDomains(req.em, principal.accountId);
    const rows = all.slice((page.page - 1) * page.perPage, page.page * page.perPage);
    const self = `${ctx.urls.base}/api/domains`;
    const list = pageMetaAndLinks(self, new URLSearchParams(), page, all.length);
    if (can(principal, 'can_create_forms')) list.links.push(link('create', self, 'POST'));
    const forms = await countDomainForms(
      req.em,
      principal.accountId,
      rows.map((d) => d.domain),
    );
    const target = ctx.domainChecks.target();
    const views = rows.map((domain) =>
      domainView(
        domain,
        {
          records: requiredRecords(domain.domain, claimValueOf(ctx, domain), target),
          forms: forms.get(domain.domain) ?? 0,
        },
        ctx.urls,
        principal,
      ),
    );
    return listAnswer('domains', views, list);
  }),
  defineRoute({
    method: 'post',
    path: '/api/domains',
    operationId: 'createDomain',
    tag: 'Domains',
    summary: 'Claim a custom domain',
    description:
      'Claims the domain for this account; the answer lists the records to add to its DNS ' +
      "(`records`): a TXT record `_formward.{domain}` with this account's value and a CNAME " +
      'to FORM_PAGES_TARGET (or A/AAAA records with its addresses). Then `POST …/verify`. A ' +
      'domain another account holds is refused with 409 `domain_taken`; claiming one this ' +
      `account holds answers 200 with it. At most ${MAX_DOMAINS_PER_ACCOUNT} domains per ` +
      'account (409 `limit_reached`). Taking a domain over looks at its DNS: that counts in ' +
      'the DNS check budgets (DNS_CHECK_RATE_ACCOUNT, DNS_CHECK_RATE_INSTANCE) and as a ' +
      "verification in the owner's daily ledger (DOMAIN_VERIFICATIONS_PER_DAY); past one, " +
      '429 `rate_limited` with `Retry-After`.',
    audit: { action: 'domain.created', target: 'domain' },
    access: 'can_create_forms',
    body: { schema: createDomainBody, mediaTypes: ['application/json'], required: true },
    responses: {
      201: {
        description: 'claimed, with the records to add',
        body: domainEnvelope,
        headers: { Location: 'the new domain' },
      },
      200: { description: 'this account holds it already', body: domainEnvelope },
    },
    errors: ['domain_taken', 'limit_reached', 'rate_limited'],
  }).handle(async ({ req, body, principal, audit }, ctx) => {
    const claimed = await claimCustomDomain(req.em, ctx.domainChecks, {
      accountId: principal.accountId,
      domain: body.domain,
      ownHosts: serviceHosts(ctx.urls, ctx.domainChecks.target()),
    }).catch((error: unknown) => {
      if (error instanceof DomainNotClaimableError)
        throw validationFailed([`domain: ${error.reason}`]);
      if (error instanceof DomainHeldError) throw new HttpError('domain_taken', error.message);
      throw domainCheckRefusal(error);
    });
    Object.assign(audit, claimed.audit);
    const view = await viewOf(req, ctx, principal, claimed.domain);
    if (!claimed.created) return { status: 200, body: envelope('domain', view, view.links) };
    return {
      status: 201,
      body: envelope('domain', view, view.links),
      headers: { Location: view.links[0]!.href },
    };
  }),
  defineRoute({
    method: 'get',
    path: '/api/domains/{domain}',
    operationId: 'getDomain',
    tag: 'Domains',
    summary: 'Read a custom domain',
    access: 'any',
    responses: { 200: { description: 'the domain', body: domainEnvelope } },
    errors: ['not_found'],
  }).handle(async ({ req, params, principal }, ctx) => {
    const view = await viewOf(req, ctx, principal, await domainOf(req, params.domain));
    return { status: 200, body: envelope('domain', view, view.links) };
  }),
  defineRoute({
    method: 'delete',
    path: '/api/domains/{domain}',
    operationId: 'deleteDomain',
    tag: 'Domains',
    summary: 'Release a custom domain',
    description:
      'Its forms lose their `domain` and `slug` (their pages stay on the ingest host); ' +
      '`forms_cleared` says how many. Another account may claim it afterwards.',
    audit: { action: 'domain.deleted', target: 'domain' },
    access: 'can_create_forms',
    responses: { 200: { description: 'domain removed', body: domainDeletedSchema } },
    errors: ['not_found'],
  }).handle(async ({ req, params, audit }, ctx) => {
    const domain = await domainOf(req, params.domain);
    const cleared = await deleteDomain(req.em, domain);
    audit.targetId = domain.domain;
    audit.summary = `released ${domain.domain}${cleared ? `, cleared from ${cleared} forms` : ''}`;
    return {
      status: 200,
      body: {
        ok: true,
        message: 'domain removed',
        forms_cleared: cleared,
        links: [link('domains', `${ctx.urls.base}/api/domains`)],
      },
    };
  }),
  defineRoute({
    method: 'post',
    path: '/api/domains/{domain}/verify',
    operationId: 'verifyAccountDomain',
    tag: 'Domains',
    summary: 'Check a custom domain now',
    description:
      'Looks up its records now and records the outcome: the answer is the domain with each ' +
      "record's `present` and the check (`check`: what was found, `present` and `missing`). " +
      'A failing check of a verified domain starts its 72-hour grace (the owners are mailed ' +
      'once); a passing one ends it. Each check counts in the DNS check budgets ' +
      '(DNS_CHECK_RATE_ACCOUNT a minute per owning user, DNS_CHECK_RATE_INSTANCE); a ' +
      "claim's first passing check counts in its owner's daily ledger " +
      '(DOMAIN_VERIFICATIONS_PER_DAY, summed over the accounts they own; deleting a domain ' +
      'does not give one back). Past either, 429 `rate_limited` with `Retry-After` and the ' +
      'domain stays as it was.',
    audit: { action: 'domain.verified', target: 'domain' },
    access: 'can_create_forms',
    responses: { 200: { description: 'the domain after the check', body: domainEnvelope } },
    errors: ['not_found', 'rate_limited'],
  }).handle(async ({ req, params, principal, audit }, ctx) => {
    const domain = await domainOf(req, params.domain);
    const { check, audit: note } = await verifyDomainNow(req.em, ctx.domainChecks, domain).catch(
      (error: unknown) => {
        throw domainCheckRefusal(error);
      },
    );
    Object.assign(audit, note);
    const view = await viewOf(req, ctx, principal, domain, check);
    return { status: 200, body: envelope('domain', view, view.links) };
  }),
];
