import { Migration } from '@mikro-orm/migrations';

/**
 * Workflow starts move to the workers (docs/running.md, "Who starts the workflows"): a worker
 * claims pending rows for a while (`claimed_until`) so that two workers never start the same
 * batch, and a crashed one's claims lapse. A row is claimable once `claimed_until` has passed;
 * ingest writes `now()` (claimable at once) or a later time when its own process starts the
 * workflow (a test run). No trigger notifies the workers: a NOTIFY takes a database-wide lock
 * from its commit until the commit is flushed, which would serialise every ingest commit; the
 * serve processes notify instead, once per group of submissions stored together
 * (src/pipeline/1-group-commit.ts).
 */
export class Migration20261211002300WorkflowStartClaims extends Migration {
  override up(): void {
    this.addSql(`
      alter table pending_workflow_starts
        add column claimed_until timestamptz not null default now();
    `);
  }

  override down(): void {
    this.addSql(`
      alter table pending_workflow_starts drop column claimed_until;
    `);
  }
}
