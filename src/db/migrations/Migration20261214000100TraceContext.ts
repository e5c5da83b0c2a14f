import { Migration } from '@mikro-orm/migrations';

/**
 * The ingest request's W3C `traceparent`, kept with its pending workflow start so that the
 * worker that starts the workflow later continues the same trace (docs/tracing.md). Written
 * only while tracing is on; null otherwise.
 */
export class Migration20261214000100TraceContext extends Migration {
  override up(): void {
    this.addSql('alter table pending_workflow_starts add column traceparent text;');
  }

  override down(): void {
    this.addSql('alter table pending_workflow_starts drop column traceparent;');
  }
}
