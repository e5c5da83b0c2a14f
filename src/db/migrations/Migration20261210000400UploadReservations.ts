import { Migration } from '@mikro-orm/migrations';

/**
 * Upload quotas without a lock across the file write (docs/running.md, File storage): the
 * bytes a form and an account keep, and the bytes reserved by uploads being written, are
 * counters one conditional UPDATE reserves from. The counters start from the files stored
 * now; deleting file rows (also by cascade from a submission, form or account) lowers them.
 *
 * New forms start with `accept_files` off; the forms there now keep the value they have.
 */
export class Migration20261210000400UploadReservations extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table forms alter column accept_files set default false;

      create table form_file_usage (
        form_id bigint primary key references forms (id) on delete cascade,
        used_bytes bigint not null default 0,
        reserved_bytes bigint not null default 0,
        reserved_at timestamptz not null default now()
      );
      create table account_file_usage (
        account_id bigint primary key references accounts (id) on delete cascade,
        used_bytes bigint not null default 0,
        reserved_bytes bigint not null default 0,
        reserved_at timestamptz not null default now()
      );
      insert into form_file_usage (form_id, used_bytes)
        select f.form_id, sum(f.size) from submission_files f
          join forms on forms.id = f.form_id group by f.form_id;
      insert into account_file_usage (account_id, used_bytes)
        select f.account_id, sum(f.size) from submission_files f
          join accounts on accounts.id = f.account_id group by f.account_id;

      create function submission_files_release_usage() returns trigger language plpgsql as $$
      begin
        update form_file_usage u set used_bytes = greatest(0, u.used_bytes - g.bytes)
          from (select form_id, sum(size) as bytes from gone group by form_id) g
         where u.form_id = g.form_id;
        update account_file_usage u set used_bytes = greatest(0, u.used_bytes - g.bytes)
          from (select account_id, sum(size) as bytes from gone group by account_id) g
         where u.account_id = g.account_id;
        return null;
      end $$;

      create trigger submission_files_release_usage
        after delete on submission_files referencing old table as gone
        for each statement execute function submission_files_release_usage();
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop trigger submission_files_release_usage on submission_files;
      drop function submission_files_release_usage();
      drop table account_file_usage;
      drop table form_file_usage;
      alter table forms alter column accept_files set default true;
    `);
  }
}
