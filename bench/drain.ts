import type { Pool } from 'pg';
import { round, sleep } from './util';

export type Drain = {
  /** Submissions without a started workflow or without a finished spam check, at the start. */
  backlog: number;
  left: { unstarted: number; unchecked: number };
  seconds: number;
  drained: boolean;
  /** When it did not drain: the database sessions that were busy or waiting. */
  stuck?: Record<string, unknown>[];
};

const TIMEOUT_MS = 120_000;
const STALL_MS = 15_000;

async function backlogNow(db: Pool) {
  const { rows } = await db.query<{ unstarted: number; unchecked: number }>(
    `select (select count(*) from pending_workflow_starts)::int as unstarted,
            (select count(*) from submissions where spam_checked_at is null)::int as unchecked`,
  );
  return rows[0];
}

/**
 * Waits until every submission has its workflow started and its spam check done, so the
 * next case starts on a quiet system. Gives up after 2 minutes, or after 15 s without progress.
 */
export async function drainWorkflows(db: Pool): Promise<Drain> {
  const started = Date.now();
  const first = await backlogNow(db);
  const size = (b: typeof first) => Math.max(b.unstarted, b.unchecked);
  let left = first;
  let lastProgress = Date.now();
  while (
    size(left) > 0 &&
    Date.now() - started < TIMEOUT_MS &&
    Date.now() - lastProgress < STALL_MS
  ) {
    await sleep(250);
    const now = await backlogNow(db);
    if (size(now) < size(left)) lastProgress = Date.now();
    left = now;
  }
  const drain: Drain = {
    backlog: size(first),
    left,
    seconds: round((Date.now() - started) / 1000, 1),
    drained: size(left) === 0,
  };
  if (!drain.drained) drain.stuck = await busySessions(db);
  return drain;
}

/** Non-idle sessions of this database, with whom they wait for (pg_blocking_pids). */
async function busySessions(db: Pool): Promise<Record<string, unknown>[]> {
  const { rows } = await db.query(
    `select pid, state, wait_event_type, wait_event, pg_blocking_pids(pid) as blocked_by,
            round(extract(epoch from now() - xact_start)::numeric, 1) as xact_age_s,
            left(regexp_replace(query, '\\s+', ' ', 'g'), 140) as query
       from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'
      order by xact_start`,
  );
  return rows as Record<string, unknown>[];
}
