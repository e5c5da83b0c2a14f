import { Migration } from '@mikro-orm/migrations';

/**
 * The "workflow not started yet" state moves off the wide submissions row into a narrow
 * table: ingest adds the row in its insert statement, the worker that starts the workflow
 * deletes it (src/pipeline/2-claim-starts.ts). Marking a submission started was an
 * update of an indexed column (the partial index on workflow_started_at), never HOT, so it
 * wrote every index of submissions again, the full-text GIN index included. No foreign key:
 * a claim skips (and forgets) submissions deleted meanwhile, and ingest's insert takes
 * no lock on the row it has just written. Unstarted submissions are carried over.
 */
export class Migration20261211002000PendingWorkflowStarts extends Migration {
  override up(): void {
    this.addSql(`
      create table pending_workflow_starts (
        submission_id bigint primary key,
        created_at timestamptz not null default now()
      );
      insert into pending_workflow_starts (submission_id, created_at)
        select id, created_at from submissions where workflow_started_at is null;
      drop index submissions_unstarted_idx;
      alter table submissions drop column workflow_started_at;
    `);
  }

  override down(): void {
    this.addSql(`
      alter table submissions add column workflow_started_at timestamptz;
      update submissions s set workflow_started_at = s.created_at
        where not exists (select 1 from pending_workflow_starts p where p.submission_id = s.id);
      create index submissions_unstarted_idx on submissions (id) where workflow_started_at is null;
      drop table pending_workflow_starts;
    `);
  }
}
