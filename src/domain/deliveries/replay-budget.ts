import type { Pool } from 'pg';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findAccountOwner } from '../../db/sql/account-owners';
import { MinuteBudget } from '../budgets/minute-budget';

/**
 * Replays an account may start per minute (REPLAY_RATE; 0: no limit). Each replay sends a
 * request to every plugin of the form, so without a budget an account could make the
 * operator's addresses hammer one receiver. Counted in PostgreSQL like account-rate-limits.ts,
 * per owning user over every account they own (a second account never doubles a budget).
 */
export class ReplayBudget {
  private readonly budget: MinuteBudget;

  constructor(pool: Pool, perMinute: number) {
    this.budget = new MinuteBudget(pool, perMinute, 'replay:owner');
  }

  get perMinute(): number {
    return this.budget.perMinute;
  }

  /** Counts one replay of the account's owner; the seconds to wait when over budget, else 0. */
  async consume(em: EntityManager, accountId: string): Promise<number> {
    if (this.budget.perMinute === 0) return 0;
    const owner = await findAccountOwner(em, accountId);
    return this.budget.consume(owner ? `user-${owner}` : `account-${accountId}`);
  }
}
