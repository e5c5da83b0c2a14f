import { Migration } from '@mikro-orm/migrations';

/**
 * Single sign-on (docs/single-sign-on.md): which user an OpenID Connect provider's subject
 * signed in as. A subject stays linked to its user even when its e-mail address changes.
 */
export class Migration20261213000400UserIdentities extends Migration {
  override up(): void {
    this.addSql(`
      create table user_identities (
        user_id bigint not null references users (id) on delete cascade,
        issuer text not null,
        subject text not null,
        created_at timestamptz not null default now(),
        unique (issuer, subject)
      );
      create index user_identities_user_idx on user_identities (user_id);
    `);
  }

  override down(): void {
    this.addSql('drop table user_identities;');
  }
}
