import { beforeAll, describe, expect, it } from 'vitest';
import { selectSpamCheckRow } from '../../src/db/sql/workflow-step-reads';
import { useScratchDatabase } from '../support/scratch-database';

// Migration20261211002200BurstRuleIndex: the burst rule's count reads the candidates through
// submissions_burst_idx, not every submission of the form within the window.
describe("the burst rule's count", () => {
  const db = useScratchDatabase();
  const { sql } = db;

  beforeAll(async () => {
    const { accountId, formId } = await db.accountWithForm('aburstplan000001');
    // A busy form: 2,000 submissions from one address within the window, 3 of them identical.
    await sql(
      `insert into submissions (form_id, account_id, payload_json, source_ip)
       select ?, ?, jsonb_build_object('n', case when g % 500 = 0 then 0 else g end,
                                       'm', repeat('x', 300)), '192.0.2.7'
         from generate_series(1, 2000) g`,
      [formId, accountId],
    );
    await sql('analyze submissions');
  });

  /** Scans of submissions_burst_idx so far (this session's counts sent first). */
  const burstIndexScans = async () => {
    await sql('select pg_stat_force_next_flush()');
    const [row] = await sql<{ scans: string }>(
      `select idx_scan as scans from pg_stat_user_indexes where indexrelname = 'submissions_burst_idx'`,
    );
    return Number(row!.scans);
  };

  it('counts the identical ones only, through the burst index', async () => {
    const [last] = await sql<{ id: string }>(
      `select id from submissions where payload_json->>'n' = '0' order by id desc limit 1`,
    );
    const before = await burstIndexScans();
    const row = await selectSpamCheckRow(db.orm.em.fork(), String(last!.id), 10);
    expect(row?.identical).toBe(4);

    expect(await burstIndexScans()).toBeGreaterThan(before);
  });
});
