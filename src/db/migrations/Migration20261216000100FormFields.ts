import { Migration } from '@mikro-orm/migrations';

/**
 * A form's field list, what to do with names outside it, and its hosted page
 * (docs/form-fields.md, docs/form-pages.md). Null `fields` keeps a form free-form.
 */
export class Migration20261216000100FormFields extends Migration {
  override up(): void {
    this.addSql(`
      alter table forms
        add column fields jsonb,
        add column unknown_fields text not null default 'keep'
          check (unknown_fields in ('keep', 'drop', 'reject')),
        add column page jsonb;
    `);
  }

  override down(): void {
    this.addSql(`
      alter table forms drop column page, drop column unknown_fields, drop column fields;
    `);
  }
}
