import type { EntityManager } from '@mikro-orm/postgresql';
import type { Domain } from '../../db/entities';
import type { UseCaseAudit } from '../audit/use-case-audit';
import { claimOrTakeOver, type ClaimDeps } from './domain-takeover';
import { claimableDomain } from './domains';

/** The name typed is no domain an account may claim; `reason` says why ("is required, …"). */
export class DomainNotClaimableError extends Error {
  override name = 'DomainNotClaimableError';

  constructor(readonly reason: string) {
    super(`the domain ${reason}`);
  }
}

/**
 * Claiming a custom domain, for `POST /api/domains` and the dashboard's domains page: the
 * name must be a public name none of this service's own hosts (DomainNotClaimableError);
 * another account's claim moves here only when the DNS shows this account's records
 * (DomainHeldError otherwise), and an account has at most MAX_DOMAINS_PER_ACCOUNT
 * (LimitReachedError). A claim the account already holds is returned unchanged (`created:
 * false`, no audit entry).
 */
export async function claimCustomDomain(
  em: EntityManager,
  deps: ClaimDeps,
  input: { accountId: string; domain: string; ownHosts: readonly string[] },
): Promise<{ domain: Domain; created: boolean; tookOver: boolean; audit: UseCaseAudit }> {
  const claimable = claimableDomain(input.domain, input.ownHosts);
  if (!claimable.ok) throw new DomainNotClaimableError(claimable.error);
  const claimed = await claimOrTakeOver(em, deps, input.accountId, claimable.domain);
  const name = claimed.domain.domain;
  return {
    ...claimed,
    audit: {
      skip: !claimed.created,
      targetId: name,
      summary: claimed.tookOver
        ? `claimed ${name}, taken over from another account by its DNS records`
        : `claimed ${name}`,
    },
  };
}
