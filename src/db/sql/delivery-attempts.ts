import type { EntityManager } from '@mikro-orm/postgresql';
import type { DeliveryStatus } from '../entities/delivery-attempt';
import { runStatement, selectRows } from './execute';

/** One attempt of one delivery, as the webhook activity records it. */
export type AttemptRecord = {
  deliveryId: string;
  submissionId: string;
  /** Null for a delivery without a plugin (the autoresponse), which `pluginType` then names. */
  pluginId: string | null;
  pluginType?: 'autoresponse';
  attempt: number;
  status: DeliveryStatus;
  httpStatus: number | null;
  error: string | null;
  durationMs: number | null;
  responseBody: string | null;
  isReplay: boolean;
  isTest: boolean;
  workflowId: string;
  workflowRunId: string;
  startedAt: Date;
  finishedAt: Date;
};

/**
 * Writes one attempt's record. Idempotent per (delivery, attempt): an activity that runs
 * again for the same attempt (a worker that died after sending) overwrites its own row.
 */
export async function upsertAttempt(em: EntityManager, r: AttemptRecord): Promise<void> {
  await runStatement(
    em,
    `insert into delivery_attempts (delivery_id, submission_id, plugin_id, plugin_type, attempt, status, http_status,
        error, duration_ms, response_body, is_replay, is_test, workflow_id, workflow_run_id, started_at, finished_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (delivery_id, attempt) do update set
       status = excluded.status, http_status = excluded.http_status, error = excluded.error,
       duration_ms = excluded.duration_ms, response_body = excluded.response_body,
       started_at = excluded.started_at, finished_at = excluded.finished_at`,
    [
      r.deliveryId,
      r.submissionId,
      r.pluginId,
      r.pluginType ?? null,
      r.attempt,
      r.status,
      r.httpStatus,
      r.error,
      r.durationMs,
      r.responseBody,
      r.isReplay,
      r.isTest,
      r.workflowId,
      r.workflowRunId,
      r.startedAt,
      r.finishedAt,
    ],
  );
}

/** A delivery attempt as the API shows it, with its submission's form and its plugin's type. */
export type AttemptRow = {
  id: string;
  delivery_id: string;
  submission_id: string;
  form_id: string;
  /** Null for the autoresponse, which has no plugin. */
  plugin_id: string | null;
  plugin_type: string;
  attempt: number;
  status: DeliveryStatus;
  http_status: number | null;
  error: string | null;
  duration_ms: number | null;
  response_body: string | null;
  is_replay: boolean;
  is_test: boolean;
  workflow_id: string | null;
  workflow_run_id: string | null;
  started_at: Date;
  finished_at: Date | null;
};

/** The attempts of one account, narrowed to a submission or a plugin (or both). */
export type AttemptFilter = { accountId: string; submissionId?: string; pluginId?: string };

function fromClause(filter: AttemptFilter): { sql: string; params: unknown[] } {
  const where = ['s.account_id = ?'];
  const params: unknown[] = [filter.accountId];
  if (filter.submissionId) {
    where.push('d.submission_id = ?');
    params.push(filter.submissionId);
  }
  if (filter.pluginId) {
    where.push('d.plugin_id = ?');
    params.push(filter.pluginId);
  }
  const sql = `from delivery_attempts d join submissions s on s.id = d.submission_id
    left join plugins p on p.id = d.plugin_id where ${where.join(' and ')}`;
  return { sql, params };
}

/** Where a listed attempt stands in the log's order (started_at, id), for continuing after it. */
export type AttemptPosition = { createdMicros: string; id: string };

/** A listed attempt with its start in microseconds, the list's position. */
export type ListedAttemptRow = AttemptRow & { started_us: string };

/** A bound microsecond count as a timestamptz, exactly (no floating point on the way). */
const AT_MICROS = `(timestamptz 'epoch' + ?::bigint * interval '1 microsecond')`;

/**
 * One slice, newest first (by start, then id), the order the `*_started_idx` indexes keep:
 * from `offset`, or right after `after` (keyset; `createdMicros` holds its started_at).
 */
export function selectAttempts(
  em: EntityManager,
  filter: AttemptFilter,
  slice: { limit: number; offset: number; after?: AttemptPosition },
): Promise<ListedAttemptRow[]> {
  const from = fromClause(filter);
  const params: unknown[] = [...from.params];
  let after = '';
  if (slice.after) {
    // Both terms: the first lets the index bound the scan, the second breaks ties.
    after = `and d.started_at <= ${AT_MICROS} and (d.started_at, d.id) < (${AT_MICROS}, ?::bigint)`;
    params.push(slice.after.createdMicros, slice.after.createdMicros, slice.after.id);
  }
  params.push(slice.limit, slice.after ? 0 : slice.offset);
  return selectRows<ListedAttemptRow>(
    em,
    `select d.id, d.delivery_id, d.submission_id, s.form_id, d.plugin_id, coalesce(p.plugin_type, d.plugin_type) as plugin_type, d.attempt, d.status,
            d.http_status, d.error, d.duration_ms, d.response_body, d.is_replay, d.is_test,
            d.workflow_id, d.workflow_run_id, d.started_at, d.finished_at,
            (extract(epoch from d.started_at) * 1000000)::bigint::text as started_us
       ${from.sql} ${after} order by d.started_at desc, d.id desc limit ? offset ?`,
    params,
  );
}

export async function countAttempts(em: EntityManager, filter: AttemptFilter): Promise<number> {
  const from = fromClause(filter);
  const [row] = await selectRows<{ total: string }>(
    em,
    `select count(*) as total ${from.sql}`,
    from.params,
  );
  return Number(row?.total ?? 0);
}

/** A record that a submission was not delivered to a disabled plugin (no attempt was made). */
export type SkippedRecord = Pick<
  AttemptRecord,
  'deliveryId' | 'submissionId' | 'isReplay' | 'workflowId' | 'workflowRunId'
> & { pluginId: string; error: string; isTest?: boolean };

/**
 * How the `error` of a delivery skipped because the submission did not match the plugin's
 * conditions begins (docs/plugins.md, "Conditions"). Such a delivery was not wanted, not
 * missed: a recovery never sends it (plugin-recoveries.ts).
 */
export const CONDITIONS_SKIP_PREFIX = 'conditions:';

/**
 * Writes the `skipped` record of a delivery, as attempt 1. A retried local activity finds the
 * row there and leaves it as it is.
 */
export async function insertSkippedAttempt(em: EntityManager, r: SkippedRecord): Promise<void> {
  await runStatement(
    em,
    `insert into delivery_attempts (delivery_id, submission_id, plugin_id, attempt, status, error,
        is_replay, is_test, workflow_id, workflow_run_id, started_at, finished_at)
     values (?, ?, ?, 1, 'skipped', ?, ?, ?, ?, ?, now(), now())
     on conflict (delivery_id, attempt) do nothing`,
    [
      r.deliveryId,
      r.submissionId,
      r.pluginId,
      r.error,
      r.isReplay,
      r.isTest ?? false,
      r.workflowId,
      r.workflowRunId,
    ],
  );
}
