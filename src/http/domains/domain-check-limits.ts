import { DnsChecksExhaustedError } from '../../domain/domains/dns-check-budget';
import { DomainVerificationsExhaustedError } from '../../domain/domains/verification-ledger';
import { HttpError, rateLimited } from '../kit/errors/http-error';

/**
 * The budgets of custom domains as answers (docs/custom-domains.md, "Limits"): a DNS check
 * budget or the daily verification ledger spent is 429 `rate_limited` with `Retry-After`;
 * anything else is thrown on.
 */
export function domainCheckRefusal(error: unknown): HttpError {
  if (error instanceof DnsChecksExhaustedError)
    return rateLimited(error.message, error.retryAfterSeconds);
  if (error instanceof DomainVerificationsExhaustedError)
    return rateLimited(error.message, error.retryAfterSeconds);
  throw error;
}

/** Whether the error is one of those budgets (the dashboard shows it on its page). */
export const isDomainCheckLimit = (
  error: unknown,
): error is DnsChecksExhaustedError | DomainVerificationsExhaustedError =>
  error instanceof DnsChecksExhaustedError || error instanceof DomainVerificationsExhaustedError;
