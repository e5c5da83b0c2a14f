import { Migration } from '@mikro-orm/migrations';

/**
 * Account security (docs/security.md, "Accounts and sign-in"): a confirmation link carries the password
 * hash it was asked with, so whoever confirms an address owns the password of that link; sessions
 * record when they were last used (idle timeout); API keys record the user who created them
 * (null for keys made with the CLI or before this release); and an index for the purge of
 * sign-ups never confirmed.
 */
export class Migration20261210000100AccountSecurity extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table account_tokens add column password_hash text;

      alter table sessions add column last_seen_at timestamptz;
      update sessions set last_seen_at = created_at;
      alter table sessions alter column last_seen_at set not null;
      alter table sessions alter column last_seen_at set default now();

      alter table api_keys add column created_by_user_id bigint
        references users (id) on delete set null;

      -- Each sign-up looks for unconfirmed accounts whose links expired, to delete them.
      create index users_unconfirmed_created_idx on users (created_at)
        where email_confirmed_at is null;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop index if exists users_unconfirmed_created_idx;
      alter table api_keys drop column if exists created_by_user_id;
      alter table sessions drop column if exists last_seen_at;
      alter table account_tokens drop column if exists password_hash;
    `);
  }
}
