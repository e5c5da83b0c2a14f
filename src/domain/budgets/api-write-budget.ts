import type { Pool } from 'pg';
import type { Principal } from '../accounts/principal';
import { MinuteBudget } from './minute-budget';

/**
 * Changes through the API per credential per minute (API_WRITE_RATE; 0: no limit): every
 * post, patch and delete under /api counts, so a leaked or runaway key cannot fill the audit
 * log or hammer the database. A key has its own budget; a dashboard session's calls count
 * per user and account. Shared by every serve process (MinuteBudget).
 */
export class ApiWriteBudget extends MinuteBudget {
  constructor(pool: Pool, perMinute: number) {
    super(pool, perMinute, 'api_write');
  }

  /** Counts one change by `principal`; the seconds to wait when over budget, else 0. */
  consumeFor(principal: Principal): Promise<number> {
    return this.consume(writerKey(principal));
  }
}

/** Whose budget a change counts against. */
export function writerKey(principal: Principal): string {
  return principal.kind === 'api_key'
    ? `key:${principal.apiKeyId}`
    : `user:${principal.userId}:account:${principal.accountId}`;
}
