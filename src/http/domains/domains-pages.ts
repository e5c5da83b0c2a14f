import type { Request, Response } from 'express';
import { requiredRecords } from '../../domain/domains/domain-check';
import {
  claimCustomDomain,
  DomainNotClaimableError,
} from '../../domain/domains/claim-custom-domain';
import { claimValueOf } from '../../domain/domains/domain-checks';
import { DomainHeldError } from '../../domain/domains/domain-takeover';
import {
  deleteDomain,
  domainStatus,
  findAccountDomain,
  graceEnd,
  listAccountDomains,
  MAX_DOMAINS_PER_ACCOUNT,
} from '../../domain/domains/domains';
import { LimitReachedError } from '../../domain/budgets/limit-reached';
import { verifyDomainNow } from '../../domain/domains/verify-domain-now';
import { listAccountForms } from '../../domain/forms/forms';
import type { AppContext } from '../../runtime/app-context';
import { isDomainCheckLimit } from './domain-check-limits';
import { serviceHosts } from '../kit/middleware/service-hosts';
import { definePage, type Render } from '../kit/routing/define-page';
import { setFlash } from '../kit/session/flash';
import { formatTime } from '../kit/chrome/format-time';
import type { DashboardSession } from '../kit/session/session-guard';
import type { DomainRow, Templates } from '../kit/chrome/template-data';
import { bodyField } from '../plugins/plugin-list-pages';

export const DOMAINS = { access: 'session', template: 'domains', title: 'Domains' } as const;
export const DOMAINS_PATH = '/app/domains';
/** The forms a page lists at most (MAX_FORMS_PER_ACCOUNT's default). */
const MAX_FORMS_LISTED = 500;

export type DomainsPage = { req: Request; session: DashboardSession; render: Render<'domains'> };

/** The page: every domain with its records, state and forms; a refused form as typed, with its error. */
export async function showDomains(
  { req, session, render }: DomainsPage,
  ctx: AppContext,
  extra: { status?: number; data?: Partial<Templates['domains']> } = {},
) {
  const domains = await listAccountDomains(req.em, session.accountId);
  const { rows: forms } = await listAccountForms(req.em, session.accountId, {
    page: 1,
    perPage: MAX_FORMS_LISTED,
  });
  const target = ctx.domainChecks.target();
  const rows: DomainRow[] = domains.map((domain) => ({
    domain: domain.domain,
    status: domainStatus(domain),
    records: requiredRecords(domain.domain, claimValueOf(ctx, domain), target),
    forms: forms
      .filter((form) => form.domain === domain.domain)
      .map((form) => ({ id: form.id, name: form.name, slug: form.slug ?? null })),
    lastCheckedAt: domain.lastCheckedAt ?? null,
    servingUntil: graceEnd(domain),
    lastError: domain.lastError ?? null,
  }));
  await render(
    {
      domains: rows,
      allForms: forms.map((form) => ({ id: form.id, name: form.name })),
      formatTime,
      max: MAX_DOMAINS_PER_ACCOUNT,
      form: {},
      ...extra.data,
    },
    { status: extra.status },
  );
}

/** The account's domain a path names, or null (another account's too). */
export const ownedDomain = (req: Request, session: DashboardSession, name: string) =>
  findAccountDomain(req.em, session.accountId, String(name).toLowerCase());

/**
 * The account's domain a post's path names; otherwise the page answers 404 (no audit entry)
 * and this gives null.
 */
async function ownedDomainOr404(
  page: DomainsPage & { params: { domain: string }; audit: { skip?: boolean } },
  ctx: AppContext,
) {
  const domain = await ownedDomain(page.req, page.session, page.params.domain);
  if (domain) return domain;
  page.audit.skip = true;
  await showDomains(page, ctx, { status: 404, data: { notFound: true } });
  return null;
}

type DomainPost = DomainsPage & { res: Response; audit: { skip?: boolean } };

/** The page again with a refusal over a rate (429, `Retry-After`) at its top; no audit entry. */
async function showLimited(page: DomainPost, ctx: AppContext, message: string, wait: number) {
  page.audit.skip = true;
  page.res.set('Retry-After', String(wait));
  await showDomains(page, ctx, { status: 429, data: { limited: message } });
}

/**
 * Counts a domain change in the member's API_WRITE_RATE, like their session's API changes
 * (claims and checks reach the resolver, verified domains Caddy's certificates); past it,
 * answers the page with 429 and says false.
 */
async function writeAllowed(page: DomainPost, ctx: AppContext): Promise<boolean> {
  const wait = await ctx.apiWriteBudget.consumeForMember(
    page.session.userId,
    page.session.accountId,
  );
  if (wait === 0) return true;
  await showLimited(
    page,
    ctx,
    `You made API_WRITE_RATE’s ${ctx.apiWriteBudget.perMinute} changes this minute. Please try again in ${wait} s.`,
    wait,
  );
  return false;
}

/**
 * `/app/domains` (docs/custom-domains.md): the account's custom domains with the records to
 * add (copyable), add one, verify one now, remove one. The same as `/api/domains`, with its
 * limits: each change counts in API_WRITE_RATE, and the DNS check budgets and the daily
 * verification ledger refuse with 429 and the reason at the top of the page.
 */
export const domainPages = [
  definePage({ need: 'member', ...DOMAINS, method: 'get', path: DOMAINS_PATH }).handle(
    (page, ctx) => showDomains(page, ctx),
  ),

  definePage({
    need: 'can_create_forms',
    ...DOMAINS,
    method: 'post',
    path: DOMAINS_PATH,
    audit: { action: 'domain.created', target: 'domain' },
  }).handle(async (page, ctx) => {
    const { req, res, session, audit } = page;
    if (!(await writeAllowed(page, ctx))) return;
    const typed = bodyField(req, 'domain');
    const again = (status: number, error: string) => {
      audit.skip = true;
      return showDomains(page, ctx, { status, data: { error, form: { domain: typed } } });
    };
    let claimed;
    try {
      claimed = await claimCustomDomain(req.em, ctx.domainChecks, {
        accountId: session.accountId,
        domain: typed,
        ownHosts: serviceHosts(ctx.urls, ctx.domainChecks.target()),
      });
    } catch (error) {
      if (error instanceof DomainNotClaimableError)
        return again(422, `The domain ${error.reason}.`);
      if (error instanceof DomainHeldError)
        return again(409, `${error.message[0]!.toUpperCase()}${error.message.slice(1)}.`);
      if (error instanceof LimitReachedError) return again(409, error.message);
      if (isDomainCheckLimit(error))
        return showLimited(page, ctx, error.message, error.retryAfterSeconds);
      throw error;
    }
    Object.assign(audit, claimed.audit);
    setFlash(res, ctx.urls.base, 'domain_added');
    res.redirect(303, DOMAINS_PATH);
  }),

  definePage({
    need: 'can_create_forms',
    ...DOMAINS,
    method: 'post',
    path: `${DOMAINS_PATH}/:domain/verify`,
    audit: { action: 'domain.verified', target: 'domain' },
  }).handle(async (page, ctx) => {
    const { req, res, audit } = page;
    if (!(await writeAllowed(page, ctx))) return;
    const domain = await ownedDomainOr404(page, ctx);
    if (!domain) return;
    let verified;
    try {
      verified = await verifyDomainNow(req.em, ctx.domainChecks, domain);
    } catch (error) {
      if (isDomainCheckLimit(error))
        return showLimited(page, ctx, error.message, error.retryAfterSeconds);
      throw error;
    }
    const { check, audit: note } = verified;
    Object.assign(audit, note);
    setFlash(res, ctx.urls.base, check.verified ? 'domain_verified' : 'domain_not_verified');
    res.redirect(303, DOMAINS_PATH);
  }),

  definePage({
    need: 'can_create_forms',
    ...DOMAINS,
    method: 'post',
    path: `${DOMAINS_PATH}/:domain/delete`,
    audit: { action: 'domain.deleted', target: 'domain' },
  }).handle(async (page, ctx) => {
    const { req, res, audit } = page;
    if (!(await writeAllowed(page, ctx))) return;
    const domain = await ownedDomainOr404(page, ctx);
    if (!domain) return;
    const cleared = await deleteDomain(req.em, domain);
    audit.summary = `released ${domain.domain}${cleared ? `, cleared from ${cleared} forms` : ''}`;
    setFlash(res, ctx.urls.base, 'domain_deleted');
    res.redirect(303, DOMAINS_PATH);
  }),
];
