import type { EntityManager } from '@mikro-orm/postgresql';
import { claimDomainVerification } from '../../db/sql/domain-verifications';

/**
 * A claim passed its check (or showed its records to take a domain over), but the account's
 * owner already verified DOMAIN_VERIFICATIONS_PER_DAY domains in the last 24 hours: the claim
 * stays as it was. The API answers 429 `rate_limited` with `Retry-After`.
 */
export class DomainVerificationsExhaustedError extends Error {
  override name = 'DomainVerificationsExhaustedError';

  constructor(
    readonly retryAfterSeconds: number,
    count: number,
    max: number,
  ) {
    const hours = Math.ceil(retryAfterSeconds / 3600);
    super(
      `This account’s owner verified ${count} domains in the last 24 hours; DOMAIN_VERIFICATIONS_PER_DAY allows at most ${max}, and deleting a domain does not give one back. Try again in ${hours} hour${hours === 1 ? '' : 's'}.`,
    );
  }
}

/**
 * Counts a domain's first verification in the ledger (db/sql/domain-verifications.ts), which
 * deleting the domain never lowers; throws DomainVerificationsExhaustedError when the owner's
 * daily count is reached. Each claim counts once: a re-verification after a failure is not a
 * new one, a released and re-claimed domain is. Uses a transaction of its own (in `em`'s, when
 * one is open), so that parallel verifications are counted one after the other.
 */
export async function countVerification(
  em: EntityManager,
  entry: { accountId: string; domain: string },
  perDay: number,
): Promise<void> {
  const claim = await em.transactional((tx) => claimDomainVerification(tx, entry, perDay));
  if (!claim.ok)
    throw new DomainVerificationsExhaustedError(claim.retryAfterSeconds, claim.count, perDay);
}
