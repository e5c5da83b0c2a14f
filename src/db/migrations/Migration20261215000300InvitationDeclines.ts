import { Migration } from '@mikro-orm/migrations';

/**
 * Invitations are offered to their address after any sign-in and may be declined
 * (docs/teams.md): `declined_at` records it, so the inviter sees it on the team page and the
 * link says so. The partial index finds an address's open invitations at every sign-in.
 */
export class Migration20261215000300InvitationDeclines extends Migration {
  override up(): void {
    this.addSql(`
      alter table invitations add column declined_at timestamptz;
      create index invitations_open_email_idx on invitations (email)
        where accepted_at is null and revoked_at is null and declined_at is null;
    `);
  }

  override down(): void {
    this.addSql(`
      drop index invitations_open_email_idx;
      alter table invitations drop column declined_at;
    `);
  }
}
