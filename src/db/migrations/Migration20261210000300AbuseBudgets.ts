import { Migration } from '@mikro-orm/migrations';

/**
 * Budgets against amplification (docs/security.md, "Budgets against amplification"): at most one running recovery per
 * plugin, held by a partial unique index so two requests at once cannot both start one. Runs
 * left running side by side from before are settled first, all but the newest marked failed
 * (their workflows finish their pages but no longer record progress).
 */
export class Migration20261210000300AbuseBudgets extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      update plugin_recoveries r set status = 'failed', finished_at = now()
       where r.status = 'running' and exists (
         select 1 from plugin_recoveries newer
          where newer.plugin_id = r.plugin_id and newer.status = 'running'
            and (newer.created_at, newer.id) > (r.created_at, r.id));
      create unique index plugin_recoveries_one_running
        on plugin_recoveries (plugin_id) where status = 'running';
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists plugin_recoveries_one_running;');
  }
}
