import { beforeAll, describe, expect, it } from 'vitest';
import { dailyDeliveryCounts } from '../../src/db/sql/delivery-stats';
import { purgeExpiredSubmissions } from '../../src/db/sql/retention';
import {
  dailyCounts,
  formTotals,
  submissionCountsPerForm,
} from '../../src/db/sql/submission-counts';
import { useScratchDatabase } from '../support/scratch-database';

// The hourly purge runs batch after batch (docs/retention.md): each batch reads index ranges
// (per form its list index, old spam its partial index), never every submission.
describe('a retention purge batch', () => {
  const db = useScratchDatabase();
  const { sql } = db;

  beforeAll(async () => {
    const { accountId, formId } = await db.accountWithForm('aretentionplan01');
    // 100 forms with a retention, 100 deleting after delivery, and one busy form with neither.
    await sql(
      `insert into forms (account_id, name, endpoint_token, retention_days, delete_after_delivery)
       select ?, 'f', 'retentionplan' || g, case when g % 2 = 0 then 30 end, g % 2 = 1
         from generate_series(1, 200) g`,
      [accountId],
    );
    await sql(
      `insert into submissions (form_id, account_id, payload_json, is_spam, created_at)
       select f.id, ?, '{}', g % 10 = 0, now() - make_interval(hours => g % 500)
         from forms f, generate_series(1, 100) g where f.id <> ?`,
      [accountId, formId],
    );
    await sql(
      `insert into submissions (form_id, account_id, payload_json, created_at)
       select ?, ?, '{}', now() - interval '400 days' from generate_series(1, 30000)`,
      [formId, accountId],
    );
    // Due: one 40-day-old submission in each form kept 30 days, and old spam in the busy form.
    await sql(
      `insert into submissions (form_id, account_id, payload_json, created_at)
       select f.id, ?, '{}', now() - interval '40 days' from forms f where f.retention_days = 30`,
      [accountId],
    );
    await sql(
      `insert into submissions (form_id, account_id, payload_json, is_spam, spam_reason, created_at)
       select ?, ?, '{}', true, 'links', now() - interval '31 days' from generate_series(1, 7)`,
      [formId, accountId],
    );
    await sql('analyze');
  });

  const submissionSeqScans = async () => {
    await sql('select pg_stat_force_next_flush()');
    const [row] = await sql<{ scans: string }>(
      `select seq_scan as scans from pg_stat_user_tables where relname = 'submissions'`,
    );
    return Number(row!.scans);
  };

  it('deletes what is due and nothing else, without a sequential scan of submissions', async () => {
    const before = await submissionSeqScans();
    const purged = await purgeExpiredSubmissions(db.orm.em.fork(), {
      spamRetentionDays: 30,
      deliveredSettleMinutes: 60,
      limit: 500,
    });
    // The busy form keeps its 400-day-old submissions for ever; nothing has been delivered.
    expect(purged).toEqual({ deleted: 107, spam: 7 });
    expect(await submissionSeqScans()).toBe(before);
  });

  it('leaves the counts of one form reading indexes, purged submissions included', async () => {
    const [form] = await sql<{ id: string }>(
      `select id from forms where endpoint_token = 'retentionplan2'`,
    );
    const formId = String(form!.id);
    const em = db.orm.em.fork();
    const before = await submissionSeqScans();
    const totals = await formTotals(em, formId);
    await submissionCountsPerForm(em, [formId]);
    await dailyCounts(em, { formId });
    await dailyDeliveryCounts(em, { formId });
    // 100 kept and the purged 40-day-old one.
    expect(totals.total + totals.spam).toBe(101);
    expect(await submissionSeqScans()).toBe(before);
  });
});
