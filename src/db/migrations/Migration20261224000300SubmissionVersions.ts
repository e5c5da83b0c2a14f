import { Migration } from '@mikro-orm/migrations';

/**
 * Versions of a submission its submitter edited (docs/manage-links.md). Version 1 is the
 * submission as first stored, written at the first edit; each edit adds the next number.
 * `status`: `current` (the submission's payload now), `superseded` (an earlier one, kept),
 * `spam` (an edit judged spam: never made current). Deleted with the submission. The audit
 * log's actors gain `submitter`, who deletes their own submission through the link.
 */
export class Migration20261224000300SubmissionVersions extends Migration {
  override up(): void {
    this.addSql(`
      create table submission_versions (
        submission_id bigint not null references submissions (id) on delete cascade,
        version integer not null check (version >= 1),
        payload_json jsonb not null,
        status text not null check (status in ('current', 'superseded', 'spam')),
        spam_reason text,
        created_at timestamptz not null default now(),
        primary key (submission_id, version)
      );
      alter table audit_events drop constraint if exists audit_events_actor_type_check;
      alter table audit_events add constraint audit_events_actor_type_check
        check (actor_type in ('user', 'api_key', 'operator', 'submitter'));
    `);
  }

  override down(): void {
    this.addSql(`
      delete from audit_events where actor_type = 'submitter';
      alter table audit_events drop constraint if exists audit_events_actor_type_check;
      alter table audit_events add constraint audit_events_actor_type_check
        check (actor_type in ('user', 'api_key', 'operator'));
      drop table if exists submission_versions;
    `);
  }
}
