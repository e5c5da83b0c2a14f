import { Migration } from '@mikro-orm/migrations';

/**
 * Dashboard accounts (docs/dashboard.md): a confirmed e-mail per user (existing and
 * CLI-created users count as confirmed), single-use e-mail tokens (confirmation and password
 * reset, stored hashed), the ALTCHA challenges already used, and the counters of
 * rate-limiter-flexible (its RateLimiterPostgres table layout), so limits hold across every
 * `serve` process.
 */
export class Migration20261127000100AccountConfirmation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table users add column email_confirmed_at timestamptz;
      update users set email_confirmed_at = created_at;

      create table account_tokens (
        token_hash text primary key,
        user_id bigint not null references users (id) on delete cascade,
        purpose text not null check (purpose in ('confirm_email', 'reset_password')),
        expires_at timestamptz not null,
        created_at timestamptz not null default now()
      );
      create index account_tokens_user_idx on account_tokens (user_id, purpose);
      create index account_tokens_expiry_idx on account_tokens (expires_at);

      create table altcha_used_challenges (
        signature text primary key,
        expires_at timestamptz not null
      );
      create index altcha_used_challenges_expiry_idx on altcha_used_challenges (expires_at);

      create table rate_limits (
        key varchar(255) primary key,
        points integer not null default 0,
        expire bigint
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table if exists rate_limits;
      drop table if exists altcha_used_challenges;
      drop table if exists account_tokens;
      alter table users drop column if exists email_confirmed_at;
    `);
  }
}
