import { Migration } from '@mikro-orm/migrations';

/**
 * Recipients and mail budget (docs/security.md, "Recipients and mail"): per account and address, the
 * pending confirmation token (its hash), when it was confirmed and when it unsubscribed; per
 * address across accounts, when the last confirmation request went out (one a day); per
 * account and hour, how many submission mails were sent and whether the owner was told.
 */
export class Migration20261210000200RecipientConfirmation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table recipient_confirmations (
        account_id bigint not null references accounts (id) on delete cascade,
        address text not null,
        token_hash text unique,
        token_expires_at timestamptz,
        confirmed_at timestamptz,
        unsubscribed_at timestamptz,
        created_at timestamptz not null default now(),
        primary key (account_id, address)
      );

      create table recipient_requests (
        address text primary key,
        last_sent_at timestamptz not null
      );

      create table account_mail_hours (
        account_id bigint not null references accounts (id) on delete cascade,
        hour timestamptz not null,
        sent integer not null default 0,
        owner_told boolean not null default false,
        primary key (account_id, hour)
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table if exists account_mail_hours;
      drop table if exists recipient_requests;
      drop table if exists recipient_confirmations;
    `);
  }
}
