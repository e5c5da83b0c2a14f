import type { Pool } from 'pg';
import { percentile } from './util';

export type AttemptSummary = {
  /** Attempts recorded by the worker(s), by status (succeeded, pending_retry, failed). */
  byStatus: Record<string, number>;
  /** The most frequent errors of attempts that did not succeed. */
  errors: Record<string, number>;
};

/** What the delivery log of the plugin says (recorded by the activity after each attempt). */
export async function attemptSummary(db: Pool, pluginId: string): Promise<AttemptSummary> {
  const { rows } = await db.query<{ status: string; error: string | null; n: number }>(
    `select status, left(coalesce(error, http_status::text, ''), 120) as error, count(*)::int as n
       from delivery_attempts where plugin_id = $1
      group by 1, 2 order by n desc`,
    [pluginId],
  );
  const summary: AttemptSummary = { byStatus: {}, errors: {} };
  for (const row of rows) {
    summary.byStatus[row.status] = (summary.byStatus[row.status] ?? 0) + row.n;
    if (row.status !== 'succeeded' && Object.keys(summary.errors).length < 5)
      summary.errors[row.error || '(none)'] = row.n;
  }
  return summary;
}

/** Why submissions never reached the receiver, as far as the database knows, counted by state. */
export async function lostReasons(db: Pool, ids: string[]): Promise<Record<string, number>> {
  if (ids.length === 0) return {};
  const { rows } = await db.query<{ state: string; n: number }>(
    `select case
              when s.id is null then 'no such submission'
              when s.is_spam then 'spam: ' || coalesce(s.spam_reason, '?')
              when exists (select 1 from pending_workflow_starts p where p.submission_id = s.id)
                then 'workflow not started'
              when s.spam_checked_at is null then 'spam check not done'
              when a.status is null then 'no delivery attempt recorded'
              else 'last attempt ' || a.status || coalesce(': ' || left(a.error, 80), '')
            end as state,
            count(*)::int as n
       from unnest($1::bigint[]) as lost(id)
       left join submissions s on s.id = lost.id
       left join lateral (select status, error from delivery_attempts d
                           where d.submission_id = lost.id order by d.id desc limit 1) a on true
      group by 1 order by n desc`,
    [ids],
  );
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}

const STAGES = {
  spamChecked: 's.spam_checked_at',
  attemptStarted: 'a.started_at',
  attemptFinished: 'a.finished_at',
} as const;

/** p50 and p99 (ms) of the time from a submission's insert to each stage of its delivery. */
export type StageLatencies = Record<keyof typeof STAGES, { p50: number; p99: number }>;

/**
 * Where the time went, from the database's own timestamps: spam check done (the workflow's first
 * step), first delivery attempt started and finished.
 */
export async function stageLatencies(db: Pool, ids: string[]): Promise<StageLatencies> {
  const columns = Object.entries(STAGES).map(
    ([name, column]) => `extract(epoch from ${column} - s.created_at) * 1000 as "${name}"`,
  );
  const { rows } = await db.query<Record<keyof typeof STAGES, number | null>>(
    `select ${columns.join(', ')}
       from submissions s
       left join lateral (select min(started_at) as started_at, min(finished_at) as finished_at
                            from delivery_attempts d where d.submission_id = s.id) a on true
      where s.id = any($1::bigint[])`,
    [ids],
  );
  const stage = (name: keyof typeof STAGES) => {
    const values = rows
      .map((r) => r[name])
      .filter((v): v is number => v !== null)
      .map(Number);
    return { p50: Math.round(percentile(values, 50)), p99: Math.round(percentile(values, 99)) };
  };
  return {
    spamChecked: stage('spamChecked'),
    attemptStarted: stage('attemptStarted'),
    attemptFinished: stage('attemptFinished'),
  };
}
