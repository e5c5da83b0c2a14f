import type { EntityManager } from '@mikro-orm/postgresql';
import type { Domain } from '../../db/entities';
import type { UseCaseAudit } from '../audit/use-case-audit';
import type { DomainCheck } from './domain-check';
import { checkClaim, type DomainCheckDeps } from './domain-checks';

/**
 * "Verify now", for `POST /api/domains/{domain}/verify` and the dashboard's button: checks the
 * claim's records at once and records the outcome (checkClaim: a failing check of a verified
 * domain starts its grace and mails the owners once). Only a change of state is an event for
 * the audit log (docs/audit-log.md). The check counts in the account's DNS budgets
 * (DnsChecksExhaustedError past one) and a first verification in the owner's daily ledger
 * (DomainVerificationsExhaustedError past it).
 */
export async function verifyDomainNow(
  em: EntityManager,
  deps: DomainCheckDeps,
  domain: Domain,
): Promise<{ check: DomainCheck; audit: UseCaseAudit }> {
  await deps.dnsChecks.spendForAccount(em, domain.accountId);
  const wasVerified = Boolean(domain.verifiedAt && !domain.failingSince);
  const check = await checkClaim(em, deps, domain);
  return {
    check,
    audit: {
      skip: check.verified === wasVerified,
      targetId: domain.domain,
      summary: `${domain.domain} ${check.verified ? 'verified' : 'failed verification'}`,
    },
  };
}
