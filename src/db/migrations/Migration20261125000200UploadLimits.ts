import { Migration } from '@mikro-orm/migrations';

/**
 * Uploads (docs/api-conventions.md, Ingest): a form may refuse files (`accept_files`, on by
 * default), and each file row names its form and account so the storage quotas are summed
 * from one index (`include (size)`: an index-only scan) instead of joining every submission.
 */
export class Migration20261125000200UploadLimits extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table forms add column accept_files boolean not null default true;

      alter table submission_files add column form_id bigint, add column account_id bigint;
      update submission_files f set form_id = s.form_id, account_id = s.account_id
        from submissions s where s.id = f.submission_id;
      alter table submission_files alter column form_id set not null,
        alter column account_id set not null;
      create index submission_files_account_idx on submission_files (account_id) include (size, form_id);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop index submission_files_account_idx;
      alter table submission_files drop column form_id, drop column account_id;
      alter table forms drop column accept_files;
    `);
  }
}
