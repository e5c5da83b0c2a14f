import { describe, expect, it } from 'vitest';
import { useScratchDatabase } from '../support/scratch-database';

// Migration20261210000400UploadReservations: forms that exist keep their accept_files, new
// ones start without; the quota counters start from the files already stored.
describe('the upload reservations migration', () => {
  const db = useScratchDatabase({
    migrateTo: 'Migration20261202000000PluginRecoveries',
    poolMax: 2,
  });
  const { sql } = db;

  it('keeps the forms there as they are and counts their stored files', async () => {
    const [account] = await sql<{ id: string }>(
      `insert into accounts (name) values ('Before') returning id`,
    );
    const forms = await sql<{ id: string }>(
      `insert into forms (account_id, name, endpoint_token, accept_files)
       values (?, 'open', 'abefore000000001', default), (?, 'closed', 'abefore000000002', false)
       returning id`,
      [account!.id, account!.id],
    );
    const [open, closed] = forms.map((form) => form.id);
    const [submission] = await sql<{ id: string }>(
      `insert into submissions (form_id, account_id, payload_json) values (?, ?, '{}') returning id`,
      [open, account!.id],
    );
    for (const size of [100, 250])
      await sql(
        `insert into submission_files (submission_id, form_id, account_id, field_name, filename,
           content_type, size, content) values (?, ?, ?, 'f', 'f.bin', 'x/y', ?, '\\x00')`,
        [submission!.id, open, account!.id, size],
      );

    await db.orm.migrator.up();

    const after = await sql<{ id: string; accept_files: boolean }>(
      'select id, accept_files from forms order by id',
    );
    expect(after.map((form) => [String(form.id), form.accept_files])).toEqual([
      [String(open), true],
      [String(closed), false],
    ]);
    const [created] = await sql<{ accept_files: boolean }>(
      `insert into forms (account_id, name, endpoint_token) values (?, 'new', 'anew000000000001')
       returning accept_files`,
      [account!.id],
    );
    expect(created!.accept_files).toBe(false);
    const usage = await sql<{ used: string }>(
      `select used_bytes as used from form_file_usage where form_id = ?
       union all select used_bytes from account_file_usage where account_id = ?`,
      [open, account!.id],
    );
    expect(usage.map((row) => Number(row.used))).toEqual([350, 350]);
  });
});
