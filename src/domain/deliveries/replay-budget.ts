import type { Knex } from '@mikro-orm/knex';
import type { EntityManager } from '@mikro-orm/postgresql';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { findAccountOwner } from '../../db/sql/account-owners';

const WINDOW_SECONDS = 60;

/**
 * Replays an account may start per minute (REPLAY_RATE; 0: no limit). Each replay sends a
 * request to every plugin of the form, so without a budget an account could make the
 * operator's addresses hammer one receiver. Counted in PostgreSQL (rate-limiter-flexible's
 * RateLimiterPostgres on the `rate_limits` table, like account-rate-limits.ts): one atomic
 * increment per replay, shared by every serve process. Counted per owning user over every
 * account they own (decisions.md §20: a second account never doubles a budget).
 */
export class ReplayBudget {
  private readonly limiter: RateLimiterPostgres | null;

  constructor(
    knex: Knex,
    readonly perMinute: number,
  ) {
    this.limiter =
      perMinute > 0
        ? new RateLimiterPostgres({
            storeClient: knex,
            storeType: 'knex',
            tableName: 'rate_limits',
            tableCreated: true,
            keyPrefix: 'replay:owner',
            points: perMinute,
            duration: WINDOW_SECONDS,
            clearExpiredByTimeout: true,
          })
        : null;
  }

  /** Counts one replay of the account's owner; the seconds to wait when over budget, else 0. */
  async consume(em: EntityManager, accountId: string): Promise<number> {
    if (!this.limiter) return 0;
    const owner = await findAccountOwner(em, accountId);
    try {
      await this.limiter.consume(owner ? `user-${owner}` : `account-${accountId}`);
      return 0;
    } catch (error) {
      // The limiter rejects with a RateLimiterRes when over the limit, an Error on failure.
      if (!(error instanceof RateLimiterRes)) throw error;
      return Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    }
  }
}
