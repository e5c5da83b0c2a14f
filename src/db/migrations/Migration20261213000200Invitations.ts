import { Migration } from '@mikro-orm/migrations';

/**
 * Invitations to an account (docs/teams.md): an address, a role, and the hash of the token
 * its link carries. A replaced or revoked invitation keeps its row (revoked_at), so its link
 * can say so and the hourly cap counts every invitation sent.
 */
export class Migration20261213000200Invitations extends Migration {
  override up(): void {
    this.addSql(`
      create table invitations (
        id bigserial primary key,
        account_id bigint not null references accounts (id) on delete cascade,
        email text not null check (email = lower(email)),
        role text not null check (role in ('admin', 'viewer')),
        token_hash text not null unique,
        invited_by_user_id bigint references users (id) on delete set null,
        expires_at timestamptz not null,
        accepted_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz not null default now()
      );
      create index invitations_account_idx on invitations (account_id, created_at);
    `);
  }

  override down(): void {
    this.addSql('drop table invitations;');
  }
}
