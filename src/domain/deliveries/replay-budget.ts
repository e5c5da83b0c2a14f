import type { Knex } from '@mikro-orm/knex';
import { MinuteBudget } from '../budgets/minute-budget';

/**
 * Replays an account may start per minute (REPLAY_RATE; 0: no limit). Each replay sends a
 * request to every plugin of the form, so without a budget an account could make the
 * operator's addresses hammer one receiver. Counted in PostgreSQL like account-rate-limits.ts,
 * keyed by account id.
 */
export class ReplayBudget extends MinuteBudget {
  constructor(knex: Knex, perMinute: number) {
    super(knex, perMinute, 'replay:account');
  }
}
