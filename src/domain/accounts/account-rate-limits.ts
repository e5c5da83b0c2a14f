import type { Pool } from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { sha256Hex } from './secrets';

/** The account actions of the dashboard that cost us an e-mail or a password hash. */
export type LimitedAction = 'signup' | 'forgot' | 'reset' | 'resend';

/** Requests allowed per hour, per client address and per e-mail address. */
export const ACCOUNT_LIMITS: Record<LimitedAction, { perAddress: number; perEmail: number }> = {
  signup: { perAddress: 20, perEmail: 3 },
  forgot: { perAddress: 20, perEmail: 3 },
  reset: { perAddress: 20, perEmail: 0 },
  resend: { perAddress: 20, perEmail: 3 },
};
const WINDOW_SECONDS = 3600;

/**
 * Fixed-window counters in PostgreSQL (rate-limiter-flexible's RateLimiterPostgres on the
 * `rate_limits` table of our migrations), so every `serve` process shares them. The sign-in
 * throttle (login-throttle.ts) is separate: it counts failures, not requests.
 */
export class AccountRateLimits {
  private readonly limiters = new Map<string, RateLimiterPostgres>();

  constructor(private readonly pool: Pool) {}

  /**
   * Counts one request for the action from this address (and for this e-mail, when given);
   * answers the seconds to wait when a limit is exceeded, else 0.
   */
  async consume(
    action: LimitedAction,
    who: { address: string | null; email?: string },
  ): Promise<number> {
    const limits = ACCOUNT_LIMITS[action];
    const checks: Promise<unknown>[] = [];
    if (who.address)
      checks.push(this.limiter(action, 'ip', limits.perAddress).consume(who.address));
    if (who.email !== undefined && limits.perEmail > 0) {
      const key = sha256Hex(who.email.trim().toLowerCase()).slice(0, 40);
      checks.push(this.limiter(action, 'email', limits.perEmail).consume(key));
    }
    const results = await Promise.allSettled(checks);
    let waitMs = 0;
    for (const result of results) {
      if (result.status === 'fulfilled') continue;
      // The limiter rejects with a RateLimiterRes when over the limit, an Error on failure.
      if (!(result.reason instanceof RateLimiterRes)) throw result.reason;
      waitMs = Math.max(waitMs, result.reason.msBeforeNext);
    }
    return Math.ceil(waitMs / 1000);
  }

  private limiter(action: LimitedAction, kind: 'ip' | 'email', points: number) {
    const prefix = `${action}:${kind}`;
    let limiter = this.limiters.get(prefix);
    if (!limiter) {
      limiter = new RateLimiterPostgres({
        storeClient: this.pool,
        storeType: 'pool',
        tableName: 'rate_limits',
        tableCreated: true,
        keyPrefix: prefix,
        points,
        duration: WINDOW_SECONDS,
        clearExpiredByTimeout: true,
      });
      this.limiters.set(prefix, limiter);
    }
    return limiter;
  }
}
