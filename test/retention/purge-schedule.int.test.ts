import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityOf } from '../../src/domain/stats/activity-series';
import { spamMetrics } from '../../src/domain/stats/spam-metrics';
import { LazyTemporalClient } from '../../src/temporal/client';
import {
  ensureRetentionSchedule,
  retentionScheduleReader,
} from '../../src/temporal/retention-schedule';
import { expectAnswer } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { ingestResultOf, postMultipart } from '../support/ingest-requests';
import { retentionScheduleOf, temporalClientOf, triggerPurge } from '../support/retention-runs';
import { startS3Server, type S3Server } from '../support/s3-server';

// The hourly purge (docs/retention.md) as it runs: the schedule the worker creates, triggered
// as the Temporal UI's "Trigger" does, purging submissions backdated with SQL, on a stack
// whose uploads live in a real S3-compatible store (versitygw).

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server();
}, 600_000); // a cold `go install` of versitygw, when .ci/run did not build it first
afterAll(() => s3?.close());

const t = useTestStack(() => ({ worker: true, env: s3.env() }));
let temporal: Awaited<ReturnType<typeof temporalClientOf>>;
beforeAll(async () => {
  temporal = await temporalClientOf(t.stack);
});
afterAll(async () => {
  // The schedule outlives the stack on the shared server: it goes with the suite.
  await retentionScheduleOf(temporal.client, t.stack)
    .delete()
    .catch(() => undefined);
  await temporal?.close();
});

const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  t.stack.sql<T>(text, params);

/** A submission of the form stored `ageMinutes` ago (no workflow runs for it). */
async function storedSubmission(
  formId: string,
  ageMinutes: number,
  spam: string | null = null,
): Promise<string> {
  const [row] = await sql<{ id: string }>(
    `insert into submissions (form_id, account_id, payload_json, is_spam, spam_reason, created_at)
     values (?, ?, '{"message":"old"}', ?, ?, now() - make_interval(mins => ?)) returning id`,
    [formId, t.accountId, spam !== null, spam, ageMinutes],
  );
  return String(row!.id);
}

/** A webhook plugin row, created a day ago (before the stored submissions). */
async function plugin(formId: string): Promise<string> {
  const [row] = await sql<{ id: string }>(
    `insert into plugins (form_id, plugin_type, name, config, created_at)
     values (?, 'webhook', 'hook', '{"url":"https://example.com/"}', now() - interval '1 day')
     returning id`,
    [formId],
  );
  return String(row!.id);
}

/** Delivery records of a submission, in this order, one a minute after it came. */
async function attempts(submissionId: string, pluginId: string, statuses: string[]) {
  for (const [index, status] of statuses.entries()) {
    await sql(
      `insert into delivery_attempts (delivery_id, submission_id, plugin_id, attempt, status,
          http_status, duration_ms, started_at, finished_at)
       select ?, s.id, ?, ?, ?, 200, 40, s.created_at + make_interval(mins => ?),
              s.created_at + make_interval(mins => ?)
         from submissions s where s.id = ?`,
      [
        `dlv_${submissionId}_${pluginId}`,
        pluginId,
        index + 1,
        status,
        index + 1,
        index + 1,
        submissionId,
      ],
    );
  }
}

const remaining = async (ids: string[]) =>
  (
    await sql<{ id: string }>('select id from submissions where id = any(?::bigint[])', [
      `{${ids.join(',')}}`,
    ])
  )
    .map((row) => String(row.id))
    .sort();

describe('the retention schedule', () => {
  it('exists once the worker started; a second worker finds it and runs', async () => {
    const schedule = retentionScheduleOf(temporal.client, t.stack);
    const first = await schedule.describe();
    expect(first.spec.intervals?.map((interval) => interval.every)).toEqual([3_600_000]);
    expect(first.action).toMatchObject({
      type: 'startWorkflow',
      workflowType: 'retentionWorkflow',
      taskQueue: t.stack.taskQueue,
    });
    expect(first.state.paused).toBe(false);
    expect(first.info.nextActionTimes[0]!.getTime()).toBeGreaterThan(Date.now());

    const second = await t.stack.startWorker();
    expect(second.state()).toBe('RUNNING');
    expect(await ensureRetentionSchedule(temporal.client, t.stack.taskQueue)).toBe('exists');
    const after = await schedule.describe();
    // Not made again: the same schedule, created once.
    expect(after.info.createdAt).toEqual(first.info.createdAt);
    await second.stop();
  });

  it('tells the dashboard the next purge, and that it is unknown when Temporal is away', async () => {
    const next = await t.stack.ctx.retentionSchedule.nextPurge();
    const described = await retentionScheduleOf(temporal.client, t.stack).describe();
    expect(next).toEqual({ known: true, at: described.info.nextActionTimes[0], paused: false });

    const away = new LazyTemporalClient({ address: '127.0.0.1:1', namespace: 'default' });
    const started = Date.now();
    expect(await retentionScheduleReader(away, t.stack.taskQueue).nextPurge()).toEqual({
      known: false,
      reason: 'unreachable',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    await away.close();
    const elsewhere = retentionScheduleReader(t.stack.ctx.temporal, 'no-such-queue');
    expect(await elsewhere.nextPurge()).toEqual({ known: false, reason: 'missing' });
  });
});

describe('a purge the schedule runs', () => {
  it(
    'deletes expired submissions in batches with their files, keeps failed and pending deliveries, keeps counts and stats',
    { timeout: 120_000 },
    async () => {
      // A: kept 7 days, with uploads (objects in the bucket, and one older row's bytes in PostgreSQL).
      const a = await t.api.createForm({ name: 'Kept a week', accept_files: true });
      expectAnswer(
        await t.api.patch(`/api/forms/${a.id}`, { retention_days: 7 }),
        'PATCH /api/forms/{id}',
        200,
      );
      const upload = async () => {
        const res = await postMultipart(
          a.submission_url,
          [
            { name: 'message', value: 'see attached' },
            { name: 'cv', filename: 'cv.bin', content: randomBytes(2048) },
          ],
          { accept: 'application/json' },
        );
        return ingestResultOf(res).id;
      };
      const aOld = await upload();
      const aFresh = await upload();
      await sql(`update submissions set created_at = now() - interval '8 days' where id = ?`, [
        aOld,
      ]);
      await sql(
        `insert into submission_files (submission_id, form_id, account_id, field_name, filename,
            content_type, size, content)
         values (?, ?, ?, 'letter', 'letter.txt', 'text/plain', 5, 'hello')`,
        [aOld, a.id, t.accountId],
      );
      // Counted in the form's quota as ingest counts what it stores.
      await sql('update form_file_usage set used_bytes = used_bytes + 5 where form_id = ?', [a.id]);
      const [freshKey] = await sql<{ storage_key: string }>(
        'select storage_key from submission_files where submission_id = ?',
        [aFresh],
      );
      expect(await s3.keys()).toHaveLength(2);
      // Many more than one batch (500) past their 7 days.
      await sql(
        `insert into submissions (form_id, account_id, payload_json, created_at)
         select ?, ?, jsonb_build_object('n', n), now() - interval '10 days'
           from generate_series(1, 1100) as n`,
        [a.id, t.accountId],
      );

      // B: kept for ever; its spam goes after SPAM_RETENTION_DAYS (30 by default).
      const b = await t.api.createForm({ name: 'Kept for ever' });
      const bSpam31 = await storedSubmission(b.id, 31 * 24 * 60, 'links');
      const bSpam29 = await storedSubmission(b.id, 29 * 24 * 60, 'links');
      const bAncient = await storedSubmission(b.id, 400 * 24 * 60);

      // C: kept 30 days and deleted after delivery, the hourly purge being the backstop.
      const c = await t.api.createForm({ name: 'Delivered then gone' });
      expectAnswer(
        await t.api.patch(`/api/forms/${c.id}`, {
          retention_days: 30,
          delete_after_delivery: true,
        }),
        'PATCH /api/forms/{id}',
        200,
      );
      const hook = await plugin(c.id);
      const other = await plugin(c.id);
      const twoHours = 120;
      const failed = await storedSubmission(c.id, twoHours);
      await attempts(failed, hook, ['pending_retry', 'failed']);
      await attempts(failed, other, ['succeeded']);
      const pending = await storedSubmission(c.id, twoHours);
      await attempts(pending, hook, ['pending_retry']);
      await attempts(pending, other, ['succeeded']);
      const skipped = await storedSubmission(c.id, twoHours);
      await attempts(skipped, hook, ['skipped']);
      await attempts(skipped, other, ['succeeded']);
      const redelivered = await storedSubmission(c.id, twoHours); // failed, then a replay succeeded
      await attempts(redelivered, hook, ['failed', 'succeeded']);
      await attempts(redelivered, other, ['succeeded']);
      const halfDelivered = await storedSubmission(c.id, twoHours); // one plugin not yet
      await attempts(halfDelivered, hook, ['succeeded']);
      const undelivered = await storedSubmission(c.id, twoHours);
      const justDelivered = await storedSubmission(c.id, 10); // its workflow's own step deletes it
      await attempts(justDelivered, hook, ['succeeded']);
      await attempts(justDelivered, other, ['succeeded']);
      const failedExpired = await storedSubmission(c.id, 31 * 24 * 60); // its retention ended
      await attempts(failedExpired, hook, ['failed']);
      const cSpam = await storedSubmission(c.id, twoHours, 'links'); // spam: not a delivery

      const statsOf = async () => {
        const forms = await t.api.get('/api/forms?per_page=100');
        const listed = expectAnswer(forms, 'GET /api/forms', 200).forms.map((f) => [
          f.id,
          f.submission_count,
          f.submission_spam_count,
          f.last_submission_at,
        ]);
        const perForm = [];
        for (const form of [a, b, c]) {
          const res = await t.api.get(`/api/form_stats/${form.id}`);
          perForm.push(expectAnswer(res, 'GET /api/form_stats/{form_id}', 200).stats);
        }
        // The platform's spam metrics as computed (the endpoint caches them a minute).
        const em = t.stack.ctx.orm.em.fork();
        const { generated_at: _, ...metrics } = await spamMetrics(em);
        const activity = await activityOf(em, { formId: c.id });
        return { listed, perForm, metrics, activity };
      };
      const before = await statsOf();
      expect(before.perForm[0]).toMatchObject({ total_submissions: 1102 });
      expect(before.activity.succeeded).toBeGreaterThan(0);

      const result = await triggerPurge(temporal.client, t.stack);

      // 1100 + aOld, bSpam31, redelivered, failedExpired; batches of 500.
      expect(result).toMatchObject({ batches: 3, deleted: 1104, spam: 1 });
      expect(await remaining([aOld, aFresh])).toEqual([aFresh]);
      const [{ n: aLeft } = { n: -1 }] = await sql<{ n: number }>(
        'select count(*)::int as n from submissions where form_id = ?',
        [a.id],
      );
      expect(aLeft).toBe(1);
      expect(await remaining([bSpam31, bSpam29, bAncient])).toEqual([bSpam29, bAncient].sort());
      expect(
        await remaining([
          failed,
          pending,
          skipped,
          redelivered,
          halfDelivered,
          undelivered,
          justDelivered,
          failedExpired,
          cSpam,
        ]),
      ).toEqual(
        [failed, pending, skipped, halfDelivered, undelivered, justDelivered, cSpam].sort(),
      );

      // The files went with their rows: the PostgreSQL bytes, and the object from the bucket.
      expect(await sql('select id from submission_files where submission_id = ?', [aOld])).toEqual(
        [],
      );
      await expect.poll(() => s3.keys(), { timeout: 10_000 }).toEqual([freshKey!.storage_key]);
      const [usage] = await sql<{ used_bytes: string }>(
        'select used_bytes from form_file_usage where form_id = ?',
        [a.id],
      );
      expect(Number(usage!.used_bytes)).toBe(2048);

      expect(await statsOf()).toEqual(before);
    },
  );

  it('empties the mail tables of rows no rule reads any more', async () => {
    await sql(
      `insert into recipient_requests (address, last_sent_at) values
         ('old@example.com', now() - interval '25 hours'), ('new@example.com', now() - interval '1 hour')`,
    );
    await sql(
      `insert into account_mail_hours (account_id, hour, sent) values
         (?, date_trunc('hour', now()) - interval '3 hours', 5),
         (?, date_trunc('hour', now()) - interval '1 hour', 6),
         (?, date_trunc('hour', now()), 7)`,
      [t.accountId, t.accountId, t.accountId],
    );
    const form = await t.api.createForm({ name: 'Stats only' });
    await sql(
      `insert into purged_delivery_attempts (form_id, account_id, status, started_at, duration_ms) values
         (?, ?, 'succeeded', now() - interval '40 days', 10), (?, ?, 'succeeded', now() - interval '2 days', 10)`,
      [form.id, t.accountId, form.id, t.accountId],
    );

    await sql(
      `insert into autoresponse_sends (form_id, address_key, submission_id, sent_at) values
         (?, 'key-of-long-ago', 1, now() - interval '25 hours'),
         (?, 'key-of-today', 2, now() - interval '2 hours')`,
      [form.id, form.id],
    );
    // Invitation mails: the per-address cap counts a day, so older ones go.
    await sql(
      `insert into invitation_mails (address_key, account_id, sent_at) values
         ('key-invited-long-ago', ?, now() - interval '25 hours'),
         ('key-invited-today', ?, now() - interval '3 hours')`,
      [t.accountId, t.accountId],
    );

    // Invitations: accepted, revoked and expired a month ago go; a pending one and one
    // settled lately stay (their links still say what became of them).
    await sql(
      `insert into invitations (account_id, email, role, token_hash, expires_at, accepted_at,
                                revoked_at, created_at) values
         (?, 'accepted-long-ago@example.com', 'viewer', 'h1', now() - interval '40 days', now() - interval '45 days', null, now() - interval '47 days'),
         (?, 'revoked-long-ago@example.com', 'viewer', 'h2', now() - interval '35 days', null, now() - interval '41 days', now() - interval '42 days'),
         (?, 'expired-long-ago@example.com', 'viewer', 'h3', now() - interval '31 days', null, null, now() - interval '38 days'),
         (?, 'expired-lately@example.com', 'viewer', 'h4', now() - interval '2 days', null, null, now() - interval '9 days'),
         (?, 'pending@example.com', 'admin', 'h5', now() + interval '5 days', null, null, now() - interval '2 days')`,
      [t.accountId, t.accountId, t.accountId, t.accountId, t.accountId],
    );

    const result = await triggerPurge(temporal.client, t.stack);

    expect(result.stale).toEqual({
      recipientRequests: 1,
      mailHours: 1,
      purgedAttempts: 1,
      autoresponseSends: 1,
      auditEvents: 0,
      invitations: 3,
      invitationMails: 1,
    });
    expect(await sql('select email from invitations order by email')).toEqual([
      { email: 'expired-lately@example.com' },
      { email: 'pending@example.com' },
    ]);
    expect(
      await sql('select address_key from autoresponse_sends where form_id = ?', [form.id]),
    ).toEqual([{ address_key: 'key-of-today' }]);
    expect(
      await sql('select address_key from invitation_mails where account_id = ?', [t.accountId]),
    ).toEqual([{ address_key: 'key-invited-today' }]);
    expect(await sql('select address from recipient_requests')).toEqual([
      { address: 'new@example.com' },
    ]);
    const hours = await sql<{ sent: number }>(
      'select sent from account_mail_hours where account_id = ? order by hour',
      [t.accountId],
    );
    expect(hours.map((row) => row.sent)).toEqual([6, 7]);
    const kept = await sql('select started_at from purged_delivery_attempts where form_id = ?', [
      form.id,
    ]);
    expect(kept).toHaveLength(1);
  });
});
