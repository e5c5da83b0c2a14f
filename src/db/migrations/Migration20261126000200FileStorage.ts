import { Migration } from '@mikro-orm/migrations';

/**
 * Uploaded files may live in an S3-compatible object store (`FILE_STORAGE_URL`, docs/running.md,
 * File storage): such a row keeps `storage_key` and no `content`; older rows keep their bytes.
 * Deleting a row (directly or by cascade from its submission, form or account) queues its
 * object in `file_object_deletions`, which the object sweep empties.
 */
export class Migration20261126000200FileStorage extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table submission_files alter column content drop not null,
        add column storage_key text,
        add constraint submission_files_bytes_somewhere
          check (content is not null or storage_key is not null);

      create table file_object_deletions (
        storage_key text primary key,
        queued_at timestamptz not null default now()
      );

      create function queue_file_object_deletion() returns trigger language plpgsql as $$
      begin
        insert into file_object_deletions (storage_key) values (old.storage_key)
          on conflict do nothing;
        return old;
      end $$;

      create trigger submission_files_queue_object_deletion
        after delete on submission_files for each row
        when (old.storage_key is not null)
        execute function queue_file_object_deletion();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop trigger submission_files_queue_object_deletion on submission_files;
      drop function queue_file_object_deletion();
      drop table file_object_deletions;
      alter table submission_files drop constraint submission_files_bytes_somewhere,
        drop column storage_key;
    `);
  }
}
