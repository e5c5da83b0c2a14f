import { Migration } from '@mikro-orm/migrations';

/** How long a form took to fill (ms), from the embed markup's `_ts`; null when unknown. */
export class Migration20261123000100SpamRules extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table submissions add column fill_ms integer;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table submissions drop column if exists fill_ms;`);
  }
}
