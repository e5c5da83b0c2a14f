import type { Pool } from 'pg';
import { round } from './util';

/**
 * What the database did per delivered submission, from `pg_stat_statements` (loaded into the
 * embedded PostgreSQL through EMBEDDED_POSTGRES_SETTINGS, see `STATEMENT_STATS_SETTINGS`) and
 * the submissions table's update counters. Counts are exact; milliseconds are PostgreSQL's
 * own execution time (no network, no client), and move with whatever else the machine runs.
 */
export type DatabaseBudget = {
  /** Submissions of the phase that reached the receiver: the divisor of every figure. */
  delivered: number;
  /** Statements the clients sent (top-level calls, BEGIN and COMMIT included). */
  statementsPerSubmission: number;
  /** Their execution time in PostgreSQL, summed. */
  execMsPerSubmission: number;
  /** The statements by time spent, nested ones (foreign key checks) marked as such. */
  top: StatementFigure[];
  /** Updates of `submissions` rows, and of them those PostgreSQL could make HOT. */
  submissionUpdates: { updates: number; hot: number };
};

export type StatementFigure = {
  query: string;
  /** False for a statement run inside another one (a foreign key check, a trigger's). */
  toplevel: boolean;
  callsPerSubmission: number;
  meanMs: number;
  msPerSubmission: number;
};

/** PostgreSQL server settings for statement statistics, nested statements counted too. */
export const STATEMENT_STATS_SETTINGS: Array<[string, string]> = [
  ['shared_preload_libraries', 'pg_stat_statements'],
  ['pg_stat_statements.track', 'all'],
];
/** The same for `formward start`'s embedded PostgreSQL (EMBEDDED_POSTGRES_SETTINGS). */
export const statementStatsEnvironment = () =>
  STATEMENT_STATS_SETTINGS.map(([name, value]) => `${name}=${value}`).join(',');

const TOP = 20;
/** Longer statements are cut, their whitespace folded, to stay readable in the report. */
const QUERY_CHARS = 160;

/** Creates the extension; false when the server did not preload the library. */
export async function enableStatementStats(db: Pool): Promise<boolean> {
  try {
    await db.query('create extension if not exists pg_stat_statements');
    await db.query('select 1 from pg_stat_statements limit 1');
    return true;
  } catch {
    return false;
  }
}

type TableCounters = { updates: number; hot: number };

/** Forgets the statements counted so far; the table counters are kept to subtract later. */
export async function startStatementCount(db: Pool): Promise<TableCounters> {
  await db.query('select pg_stat_statements_reset()');
  return submissionCounters(db);
}

async function submissionCounters(db: Pool): Promise<TableCounters> {
  await db.query('select pg_stat_force_next_flush()'); // this session's own, at once
  const { rows } = await db.query<{ updates: string; hot: string }>(
    `select n_tup_upd as updates, n_tup_hot_upd as hot
       from pg_stat_user_tables where relname = 'submissions'`,
  );
  return { updates: Number(rows[0]?.updates ?? 0), hot: Number(rows[0]?.hot ?? 0) };
}

/**
 * The statements run since `startStatementCount`, in this database only (the Temporal server
 * on PostgreSQL shares the cluster), per delivered submission. The bench's own statements
 * (statistics, the reset) are left out.
 */
export async function readDatabaseBudget(
  db: Pool,
  delivered: number,
  before: TableCounters,
): Promise<DatabaseBudget> {
  // An idle backend sends its table counters within 10 s (PGSTAT_IDLE_INTERVAL).
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  const after = await submissionCounters(db);
  const { rows } = await db.query<{
    query: string;
    toplevel: boolean;
    calls: string;
    total_ms: number;
  }>(
    `select query, toplevel, calls, total_exec_time as total_ms
       from pg_stat_statements
      where dbid = (select oid from pg_database where datname = current_database())
        and query not ilike '%pg_stat%'
      order by total_exec_time desc`,
  );
  const per = (value: number) => (delivered > 0 ? value / delivered : 0);
  const toplevel = rows.filter((row) => row.toplevel);
  const sum = (pick: (row: (typeof rows)[number]) => number) =>
    toplevel.reduce((total, row) => total + pick(row), 0);
  return {
    delivered,
    statementsPerSubmission: round(per(sum((row) => Number(row.calls))), 2),
    execMsPerSubmission: round(per(sum((row) => row.total_ms)), 3),
    top: rows.slice(0, TOP).map((row) => ({
      query: folded(row.query),
      toplevel: row.toplevel,
      callsPerSubmission: round(per(Number(row.calls)), 2),
      meanMs: round(row.total_ms / Math.max(1, Number(row.calls)), 3),
      msPerSubmission: round(per(row.total_ms), 3),
    })),
    submissionUpdates: { updates: after.updates - before.updates, hot: after.hot - before.hot },
  };
}

function folded(query: string): string {
  const text = query.replace(/\s+/g, ' ').trim();
  return text.length > QUERY_CHARS ? `${text.slice(0, QUERY_CHARS - 1)}…` : text;
}
