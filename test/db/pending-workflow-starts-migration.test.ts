import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrm, type Orm } from '../../src/db/orm';
import { createTestDatabase } from '../support/test-stack';

// Migration20261211002000PendingWorkflowStarts: submissions whose workflow was never marked
// started are still found by the sweeper after the upgrade (as pending starts), the others not.
describe('the pending workflow starts migration', () => {
  let orm: Orm;
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    orm.em.getConnection().execute<T[]>(text, params);

  beforeAll(async () => {
    orm = await createOrm(await createTestDatabase(), { poolMax: 2 });
    await orm.getMigrator().up({ to: 'Migration20261210000400UploadReservations' });
  });
  afterAll(() => orm?.close());

  it('carries the unstarted submissions over, with their time of arrival', async () => {
    const [account] = await sql<{ id: string }>(
      `insert into accounts (name) values ('Before') returning id`,
    );
    const [form] = await sql<{ id: string }>(
      `insert into forms (account_id, name, endpoint_token) values (?, 'f', 'apending00000001')
       returning id`,
      [account!.id],
    );
    const rows = await sql<{ id: string; created_at: string }>(
      `insert into submissions (form_id, account_id, payload_json, created_at, workflow_started_at)
       values (?, ?, '{"n":1}', now() - interval '1 hour', now()),
              (?, ?, '{"n":2}', now() - interval '1 hour', null),
              (?, ?, '{"n":3}', now(), null)
       returning id, created_at`,
      [form!.id, account!.id, form!.id, account!.id, form!.id, account!.id],
    );

    await orm.getMigrator().up();

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
