import { Migration } from '@mikro-orm/migrations';

/**
 * Gates on a form (docs/form-limits.md): `forms.limits` (null: none), and on submissions the
 * unique field's normalized value as a SHA-256 (`unique_key`), unique per form. Only gated
 * non-spam submissions carry a key, so the index holds only theirs; its predicate names
 * `unique_key` alone, so the spam verdict's update of a row without a key stays HOT
 * (Migration20261211002100SubmissionsFillfactor). A new nullable column without a default
 * rewrites nothing.
 */
export class Migration20261219000100FormLimits extends Migration {
  override up(): void {
    this.addSql(`
      alter table forms add column limits jsonb;
      alter table submissions add column unique_key text;
      create unique index submissions_unique_key_idx on submissions (form_id, unique_key)
        where unique_key is not null;
    `);
  }

  override down(): void {
    this.addSql(`
      drop index if exists submissions_unique_key_idx;
      alter table submissions drop column if exists unique_key;
      alter table forms drop column if exists limits;
    `);
  }
}
