import type { Pool } from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';

const WINDOW_SECONDS = 60;

/**
 * So many units per key per minute (0: no limit), counted in PostgreSQL
 * (rate-limiter-flexible's RateLimiterPostgres on the `rate_limits` table): one atomic
 * increment per unit, shared by every serve process, so replicas share one budget.
 */
export class MinuteBudget {
  private readonly limiter: RateLimiterPostgres | null;

  constructor(
    pool: Pool,
    readonly perMinute: number,
    /** Keeps each budget's keys apart in the shared table. */
    keyPrefix: string,
  ) {
    this.limiter =
      perMinute > 0
        ? new RateLimiterPostgres({
            storeClient: pool,
            storeType: 'pool',
            tableName: 'rate_limits',
            tableCreated: true,
            keyPrefix,
            points: perMinute,
            duration: WINDOW_SECONDS,
            clearExpiredByTimeout: true,
          })
        : null;
  }

  /** Counts one unit of `key`; the seconds to wait when over budget, else 0. */
  async consume(key: string): Promise<number> {
    if (!this.limiter) return 0;
    try {
      await this.limiter.consume(key);
      return 0;
    } catch (error) {
      // The limiter rejects with a RateLimiterRes when over the limit, an Error on failure.
      if (!(error instanceof RateLimiterRes)) throw error;
      return Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    }
  }
}
