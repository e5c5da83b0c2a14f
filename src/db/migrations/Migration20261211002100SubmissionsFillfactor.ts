import { Migration } from '@mikro-orm/migrations';

/**
 * Room on each submissions page for the row's later versions: the spam verdict (and ingest's
 * file links) update a row soon after its insert, and PostgreSQL can make such an update HOT
 * (no index written, the GIN index included) only when the new version fits on the same page.
 * Pages filled from now on keep 20% free; pages written before stay as they are.
 */
export class Migration20261211002100SubmissionsFillfactor extends Migration {
  override up(): void {
    this.addSql('alter table submissions set (fillfactor = 80);');
  }

  override down(): void {
    this.addSql('alter table submissions reset (fillfactor);');
  }
}
