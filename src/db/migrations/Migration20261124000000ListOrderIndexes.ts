import { Migration } from '@mikro-orm/migrations';

/**
 * Indexes in the order the lists read: the delivery log sorts attempts by `started_at`
 * (not `created_at`) and a form's plugins by `created_at`, so a page is read from the
 * index and the scan stops at the page's end instead of sorting every row. The indexes
 * they replace (same leading column) are dropped: no query orders by the old columns.
 */
export class Migration20261124000000ListOrderIndexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create index delivery_attempts_submission_started_idx
        on delivery_attempts (submission_id, started_at desc, id desc);
      create index delivery_attempts_plugin_started_idx
        on delivery_attempts (plugin_id, started_at desc, id desc);
      drop index delivery_attempts_submission_idx;
      drop index delivery_attempts_plugin_idx;

      create index plugins_form_list_idx on plugins (form_id, created_at, id) where deleted_at is null;
      drop index plugins_form_idx;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      create index plugins_form_idx on plugins (form_id) where deleted_at is null;
      drop index plugins_form_list_idx;

      create index delivery_attempts_submission_idx on delivery_attempts (submission_id, created_at desc);
      create index delivery_attempts_plugin_idx on delivery_attempts (plugin_id, created_at desc);
      drop index delivery_attempts_submission_started_idx;
      drop index delivery_attempts_plugin_started_idx;
    `);
  }
}
