import type { Pool } from 'pg';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findAccountOwner } from '../../db/sql/account-owners';
import { MinuteBudget } from '../budgets/minute-budget';

/** A DNS check on demand refused: a budget is spent; `retryAfterSeconds` until it has room. */
export class DnsChecksExhaustedError extends Error {
  override name = 'DnsChecksExhaustedError';

  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * DNS checks on demand (a claim that looks at the records, "Verify now", the public
 * verify_domain): each asks the resolver several questions, so an account or a client network
 * has its own budget a minute (DNS_CHECK_RATE_ACCOUNT, per owning user over the accounts they
 * own; DNS_CHECK_RATE_NETWORK, per IPv4 address or IPv6 /64 like ingest), and all of them
 * together share the instance's (DNS_CHECK_RATE_INSTANCE). Counted in PostgreSQL
 * (MinuteBudget), shared by every serve process. The daily re-checks are not on demand and
 * count in none.
 */
export class DnsCheckBudget {
  private readonly account: MinuteBudget;
  private readonly network: MinuteBudget;
  private readonly instance: MinuteBudget;

  constructor(pool: Pool, perMinute: { account: number; network: number; instance: number }) {
    this.account = new MinuteBudget(pool, perMinute.account, 'dns_check:owner');
    this.network = new MinuteBudget(pool, perMinute.network, 'dns_check:network');
    this.instance = new MinuteBudget(pool, perMinute.instance, 'dns_check:instance');
  }

  /** Counts one check by the account's owner; throws DnsChecksExhaustedError past a budget. */
  async spendForAccount(em: EntityManager, accountId: string): Promise<void> {
    if (this.account.perMinute > 0) {
      const owner = await findAccountOwner(em, accountId);
      const wait = await this.account.consume(owner ? `user-${owner}` : `account-${accountId}`);
      if (wait > 0)
        throw new DnsChecksExhaustedError(
          wait,
          `This account’s owner made DNS_CHECK_RATE_ACCOUNT’s ${this.account.perMinute} DNS checks this minute; try again in ${wait} s.`,
        );
    }
    await this.spendForInstance();
  }

  /** Counts one public check from the client network; throws DnsChecksExhaustedError past a budget. */
  async spendForNetwork(network: string): Promise<void> {
    const wait = await this.network.consume(network);
    if (wait > 0)
      throw new DnsChecksExhaustedError(
        wait,
        `This network made DNS_CHECK_RATE_NETWORK’s ${this.network.perMinute} domain checks this minute; try again in ${wait} s.`,
      );
    await this.spendForInstance();
  }

  private async spendForInstance(): Promise<void> {
    const wait = await this.instance.consume('all');
    if (wait > 0)
      throw new DnsChecksExhaustedError(
        wait,
        `This service made DNS_CHECK_RATE_INSTANCE’s ${this.instance.perMinute} DNS checks this minute; try again in ${wait} s.`,
      );
  }
}
