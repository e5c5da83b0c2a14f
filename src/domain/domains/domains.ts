import type { EntityManager } from '@mikro-orm/postgresql';
import { Domain } from '../../db/entities';
import {
  clearDomainFromForms,
  countDomainsUnderLock,
  GRACE_HOURS,
  insertDomainClaim,
} from '../../db/sql/domains';
import { LimitReachedError } from '../budgets/limit-reached';
import { normalizeDomain, type NormalizedDomain } from './verify-domain';

/** Domains one account may claim (docs/custom-domains.md). */
export const MAX_DOMAINS_PER_ACCOUNT = 20;

export const GRACE_MS = GRACE_HOURS * 3_600_000;

/** The claim is held by another account; which one is never said. */
export class DomainTakenError extends Error {
  override name = 'DomainTakenError';
}

/** Where a domain stands, as the API and the dashboard show it. */
export type DomainStatus = 'pending' | 'verified' | 'failing' | 'stopped';

export function domainStatus(domain: Domain, now = new Date()): DomainStatus {
  if (!domain.verifiedAt) return 'pending';
  if (!domain.failingSince) return 'verified';
  return graceEnd(domain)!.getTime() > now.getTime() ? 'failing' : 'stopped';
}

/** When a failing domain stops serving; null while it passes (or never passed). */
export function graceEnd(domain: Domain): Date | null {
  if (!domain.verifiedAt || !domain.failingSince) return null;
  return new Date(domain.failingSince.getTime() + GRACE_MS);
}

export const isServing = (domain: Domain, now = new Date()) =>
  ['verified', 'failing'].includes(domainStatus(domain, now));

/**
 * A domain an account may claim: a valid public name (normalizeDomain) that is none of this
 * service's own hosts (BASE_URL, INGEST_URL, FORM_PAGES_TARGET), which serve everything.
 */
export function claimableDomain(input: string, ownHosts: readonly string[]): NormalizedDomain {
  const normalized = normalizeDomain(input);
  if (normalized.ok && ownHosts.includes(normalized.domain))
    return { ok: false, error: "is this service's own host and cannot be a custom domain" };
  return normalized;
}

/**
 * Claims a domain for the account: the claim it already holds is returned as it is
 * (`created: false`); another account's claim is refused (DomainTakenError), and so is a new
 * one past MAX_DOMAINS_PER_ACCOUNT.
 */
export async function claimDomain(
  em: EntityManager,
  accountId: string,
  domain: string,
): Promise<{ domain: Domain; created: boolean }> {
  return em.transactional(async (tx) => {
    const held = await tx.findOne(Domain, { domain });
    if (held && held.accountId === accountId) return { domain: held, created: false };
    if (held) throw new DomainTakenError();
    const count = await countDomainsUnderLock(tx, accountId);
    if (count >= MAX_DOMAINS_PER_ACCOUNT) {
      throw new LimitReachedError(
        'domains per account',
        MAX_DOMAINS_PER_ACCOUNT,
        `This account has ${count} domains; an account may have at most ${MAX_DOMAINS_PER_ACCOUNT}. Delete a domain to add another.`,
      );
    }
    if (!(await insertDomainClaim(tx, accountId, domain))) throw new DomainTakenError();
    return { domain: await tx.findOneOrFail(Domain, { domain }), created: true };
  });
}

export async function listAccountDomains(em: EntityManager, accountId: string): Promise<Domain[]> {
  return em.find(Domain, { accountId }, { orderBy: { domain: 'asc' } });
}

export async function findAccountDomain(
  em: EntityManager,
  accountId: string,
  domain: string,
): Promise<Domain | null> {
  return em.findOne(Domain, { accountId, domain });
}

/** Whoever holds the domain (for the public check's expected TXT value), or null. */
export async function findDomainClaim(em: EntityManager, domain: string): Promise<Domain | null> {
  return em.findOne(Domain, { domain });
}

/**
 * Releases the claim. Its forms lose their domain and slug (their pages stay on the ingest
 * host); returns how many forms that was.
 */
export async function deleteDomain(em: EntityManager, domain: Domain): Promise<number> {
  return em.transactional(async (tx) => {
    const forms = await clearDomainFromForms(tx, domain.accountId, domain.domain);
    await tx.nativeDelete(Domain, { id: domain.id });
    return forms;
  });
}

/**
 * Records a check's outcome. Passing: verified (from now on, if it was not), serving again,
 * any failure forgotten. Failing: a verified domain starts its grace at the first failure;
 * `startedFailing` says this check began the failure and nobody was told yet (mail the owners).
 */
export async function recordCheck(
  em: EntityManager,
  domain: Domain,
  outcome: { verified: boolean; error: string | null },
  now = new Date(),
): Promise<{ startedFailing: boolean }> {
  domain.lastCheckedAt = now;
  let startedFailing = false;
  if (outcome.verified) {
    domain.verifiedAt ??= now;
    domain.failingSince = null;
    domain.lastError = null;
    domain.notifiedAt = null;
  } else {
    domain.lastError = outcome.error;
    if (domain.verifiedAt && !domain.failingSince) domain.failingSince = now;
    startedFailing = Boolean(domain.verifiedAt && !domain.notifiedAt);
  }
  await em.flush();
  return { startedFailing };
}

/** Marks the owners as told about the current failure. */
export async function markNotified(em: EntityManager, domain: Domain, now = new Date()) {
  domain.notifiedAt = now;
  await em.flush();
}
