import { Migration } from '@mikro-orm/migrations';

/**
 * The burst rule (docs/spam-rules.md) looks for identical submissions from one address to one
 * form. Through the form's list index it read every submission of the form in the window and
 * compared payloads row by row, so each check cost more the busier the form. This index finds
 * the candidates by address and payload hash; the payloads are still compared as jsonb.
 */
export class Migration20261211002200BurstRuleIndex extends Migration {
  override up(): void {
    this.addSql(`
      create index submissions_burst_idx on submissions
        (form_id, source_ip, hashtextextended(payload_json::text, 0), created_at)
        where source_ip is not null;
    `);
  }

  override down(): void {
    this.addSql('drop index submissions_burst_idx;');
  }
}
