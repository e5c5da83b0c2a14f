import { Migration } from '@mikro-orm/migrations';

/**
 * A plugin's conditions (which submissions it gets) and field choice (what of them it is
 * sent), docs/plugins.md "Conditions" and "Choosing fields". Null: every submission, every
 * field, as before.
 */
export class Migration20261217000100PluginRouting extends Migration {
  override up(): void {
    this.addSql(
      `alter table plugins add column conditions jsonb, add column include_fields jsonb;`,
    );
  }

  override down(): void {
    this.addSql(`alter table plugins drop column include_fields, drop column conditions;`);
  }
}
