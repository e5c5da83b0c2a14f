import { Migration } from '@mikro-orm/migrations';

/**
 * The ledger of domain verifications (docs/custom-domains.md, "Limits"): one row each time a
 * claim first passes its check (or moves to an account by its DNS records), for the daily cap
 * per owning user (DOMAIN_VERIFICATIONS_PER_DAY). No foreign key: deleting the domain or the
 * account leaves the row, so releasing and claiming again never lowers the count. The hourly
 * purge drops rows older than a day, which no cap reads.
 */
export class Migration20261218000500DomainVerifications extends Migration {
  override up(): void {
    this.addSql(`
      create table domain_verifications (
        owner_user_id bigint,
        account_id bigint not null,
        domain text not null,
        verified_at timestamptz not null default now()
      );
      create index domain_verifications_owner_idx on domain_verifications (owner_user_id, verified_at);
      create index domain_verifications_account_idx on domain_verifications (account_id, verified_at);
    `);
  }

  override down(): void {
    this.addSql('drop table if exists domain_verifications;');
  }
}
