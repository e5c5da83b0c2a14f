import { describe, expect, it } from 'vitest';
import { useScratchDatabase } from '../support/scratch-database';

// Migration20261211002000PendingWorkflowStarts: submissions whose workflow was never marked
// started are still found by the workers after the upgrade (as pending starts), the others not.
describe('the pending workflow starts migration', () => {
  const db = useScratchDatabase({
    migrateTo: 'Migration20261210000400UploadReservations',
    poolMax: 2,
  });
  const { sql } = db;

  it('carries the unstarted submissions over, with their time of arrival', async () => {
    const { accountId, formId } = await db.accountWithForm('apending00000001');
    const rows = await sql<{ id: string; created_at: string }>(
      `insert into submissions (form_id, account_id, payload_json, created_at, workflow_started_at)
       values (?, ?, '{"n":1}', now() - interval '1 hour', now()),
              (?, ?, '{"n":2}', now() - interval '1 hour', null),
              (?, ?, '{"n":3}', now(), null)
       returning id, created_at`,
      [formId, accountId, formId, accountId, formId, accountId],
    );

    await db.orm.migrator.up();

    const pending = await sql<{ submission_id: string; created_at: string }>(
      'select submission_id, created_at from pending_workflow_starts order by submission_id',
    );
    expect(
      pending.map((row) => [String(row.submission_id), new Date(row.created_at).getTime()]),
    ).toEqual(rows.slice(1).map((row) => [String(row.id), new Date(row.created_at).getTime()]));
    const columns = await sql<{ n: string }>(
      `select count(*) as n from information_schema.columns
        where table_name = 'submissions' and column_name = 'workflow_started_at'`,
    );
    expect(Number(columns[0]!.n)).toBe(0);
  });
});
