import type { Pool } from 'pg';
import type { Principal } from '../accounts/principal';
import { MinuteBudget } from './minute-budget';

/** The budget of one user's changes in one account (their session's API calls and dashboard changes). */
const memberKey = (userId: string, accountId: string) => `user:${userId}:account:${accountId}`;

/**
 * Changes through the API per credential per minute (API_WRITE_RATE; 0: no limit): every
 * post, patch and delete under /api counts, so a leaked or runaway key cannot fill the audit
 * log or hammer the database. A key has its own budget; a dashboard session's calls count
 * per user and account, and so do the dashboard's domain changes (add, verify, remove: each
 * reaches the resolver or Caddy's certificates as the API's do). Shared by every serve
 * process (MinuteBudget).
 */
export class ApiWriteBudget extends MinuteBudget {
  constructor(pool: Pool, perMinute: number) {
    super(pool, perMinute, 'api_write');
  }

  /** Counts one change by `principal`; the seconds to wait when over budget, else 0. */
  consumeFor(principal: Principal): Promise<number> {
    return this.consume(writerKey(principal));
  }

  /** Counts one dashboard change by the user in the account, in the budget of their session's API calls. */
  consumeForMember(userId: string, accountId: string): Promise<number> {
    return this.consume(memberKey(userId, accountId));
  }
}

/** Whose budget a change counts against. */
export function writerKey(principal: Principal): string {
  return principal.kind === 'api_key'
    ? `key:${principal.apiKeyId}`
    : memberKey(principal.userId, principal.accountId);
}
