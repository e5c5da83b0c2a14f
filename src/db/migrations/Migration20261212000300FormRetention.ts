import { Migration } from '@mikro-orm/migrations';

/**
 * Retention (docs/retention.md): a form keeps its submissions `retention_days` (null: for ever)
 * and may delete each one once every delivery of it succeeded (`delete_after_delivery`).
 *
 * A purged submission leaves a row without content in `purged_submissions` (its form, account,
 * spam verdict and time), and its delivery attempts of the last 31 days their status, time and
 * duration in `purged_delivery_attempts`: the counts and stats add them, so they stay as they
 * were. Old spam is found by its own partial index (only spam rows pay for it).
 */
export class Migration20261212000300FormRetention extends Migration {
  override up(): void {
    this.addSql(`
      alter table forms
        add column retention_days integer check (retention_days between 1 and 3650),
        add column delete_after_delivery boolean not null default false;

      create table purged_submissions (
        id bigint primary key,
        form_id bigint not null references forms (id) on delete cascade,
        account_id bigint not null references accounts (id) on delete cascade,
        is_spam boolean not null,
        spam_reason text,
        created_at timestamptz not null
      );
      create index purged_submissions_form_idx on purged_submissions (form_id, is_spam, created_at);
      create index purged_submissions_account_idx on purged_submissions (account_id, is_spam, created_at);

      create table purged_delivery_attempts (
        form_id bigint not null references forms (id) on delete cascade,
        account_id bigint not null references accounts (id) on delete cascade,
        status text not null,
        started_at timestamptz not null,
        duration_ms integer
      );
      create index purged_delivery_attempts_form_idx on purged_delivery_attempts (form_id, started_at);
      create index purged_delivery_attempts_account_idx on purged_delivery_attempts (account_id, started_at);
      create index purged_delivery_attempts_started_idx on purged_delivery_attempts (started_at);

      create index submissions_spam_created_idx on submissions (created_at, id) where is_spam;
    `);
  }

  override down(): void {
    this.addSql(`
      drop index if exists submissions_spam_created_idx;
      drop table if exists purged_delivery_attempts;
      drop table if exists purged_submissions;
      alter table forms drop column if exists retention_days, drop column if exists delete_after_delivery;
    `);
  }
}
