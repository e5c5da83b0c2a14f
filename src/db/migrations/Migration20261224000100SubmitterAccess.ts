import { Migration } from '@mikro-orm/migrations';

/**
 * What a form's submitters may do through their manage link (docs/manage-links.md):
 * `submitter_access` (`none` by default) and `edit_until`, an ISO 8601 duration after the
 * submission (null: until the form's `limits.closes_at`, if any). A new column with a
 * constant default rewrites nothing.
 */
export class Migration20261224000100SubmitterAccess extends Migration {
  override up(): void {
    this.addSql(`
      alter table forms add column submitter_access text not null default 'none'
        check (submitter_access in ('none', 'view', 'edit', 'edit_delete'));
      alter table forms add column edit_until text;
    `);
  }

  override down(): void {
    this.addSql(`
      alter table forms drop column if exists edit_until;
      alter table forms drop column if exists submitter_access;
    `);
  }
}
