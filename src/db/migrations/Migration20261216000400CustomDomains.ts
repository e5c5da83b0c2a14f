import { Migration } from '@mikro-orm/migrations';

/**
 * Custom domains for form pages (docs/custom-domains.md). A domain is claimed by one account
 * at a time (`domain` unique across accounts). `verified_at` is the first passing check;
 * `failing_since` the first failing check since the last passing one (the 72-hour grace runs
 * from it); `notified_at` when the owners were mailed about that failure.
 *
 * A form's `domain` must be a domain of the form's own account: the composite foreign key
 * says so, and deleting the domain clears it from its forms (`set null (domain)`).
 * A slug is unique per domain.
 */
export class Migration20261216000400CustomDomains extends Migration {
  override up(): void {
    this.addSql(`
      create table domains (
        id bigserial primary key,
        account_id bigint not null references accounts (id) on delete cascade,
        domain text not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        verified_at timestamptz,
        last_checked_at timestamptz,
        failing_since timestamptz,
        last_error text,
        notified_at timestamptz,
        constraint domains_domain_key unique (domain),
        constraint domains_account_domain_key unique (account_id, domain)
      );
      create index domains_recheck_idx on domains (last_checked_at) where verified_at is not null;
      alter table forms add column domain text, add column slug text;
      alter table forms add constraint forms_domain_fkey foreign key (account_id, domain)
        references domains (account_id, domain) on delete set null (domain);
      create unique index forms_domain_slug_key on forms (domain, slug)
        where domain is not null and slug is not null;
    `);
  }

  override down(): void {
    this.addSql(`
      drop index forms_domain_slug_key;
      alter table forms drop constraint forms_domain_fkey;
      alter table forms drop column domain, drop column slug;
      drop table domains;
    `);
  }
}
