import type { EntityManager } from '@mikro-orm/postgresql';
import { asDriverError, bigintArray, runStatement, selectRows } from './execute';

/** Each range a list may ask for, and its interval (src/domain/submissions/range.ts lists them). */
export const RANGE_INTERVALS = {
  '24h': '24 hours',
  '7d': '7 days',
  '30d': '30 days',
  all: null,
} as const;

/** How far back a list reaches. */
export type SubmissionRange = keyof typeof RANGE_INTERVALS;

export type SubmissionFilter = {
  accountId: string;
  spam: boolean;
  formId?: string;
  /** Full-text query in websearch syntax. */
  q?: string;
  range: SubmissionRange;
};

/** A submission row as read for the API (joined with its form's token). */
export type SubmissionRow = {
  id: string;
  form_id: string;
  form_endpoint_token: string;
  payload_json: Record<string, unknown>;
  special_normalized: Record<string, string> | null;
  source_ip: string | null;
  user_agent: string | null;
  referrer: string | null;
  is_spam: boolean;
  spam_reason: string | null;
  created_at: Date;
  updated_at: Date;
};

const COLUMNS = `s.id, s.form_id, f.endpoint_token as form_endpoint_token, s.payload_json, s.special_normalized,
  s.source_ip, s.user_agent, s.referrer, s.is_spam, s.spam_reason, s.created_at, s.updated_at`;

/** The filter as a where clause over `submissions s` (lists, counts and the export share it). */
export function whereClause(filter: SubmissionFilter): { sql: string; params: unknown[] } {
  // Account (or form) and spam flag first: the submissions_*_list_idx indexes, in list order.
  const parts = ['s.account_id = ?', 's.is_spam = ?'];
  const params: unknown[] = [filter.accountId, filter.spam];
  if (filter.formId) {
    parts.push('s.form_id = ?');
    params.push(filter.formId);
  }
  const interval = RANGE_INTERVALS[filter.range];
  if (interval) parts.push(`s.created_at >= now() - interval '${interval}'`);
  if (filter.q) {
    // websearch syntax: words, "quoted phrases", -exclusions, OR. Served by the GIN index.
    parts.push(`s.search_vector @@ websearch_to_tsquery('simple', ?)`);
    params.push(filter.q);
  }
  return { sql: parts.join(' and '), params };
}

/** Where a list stopped: the last item's created_at (in microseconds since 1970) and id. */
export type SubmissionPosition = { createdMicros: string; id: string };

/** A listed row and its position, for continuing the list right after it. */
export type ListedSubmissionRow = SubmissionRow & { created_us: string };

export type SubmissionSlice = {
  perPage: number;
  /** Rows to skip (page-number navigation)... */
  offset: number;
  /** ...or, instead, continue right after this row (keyset navigation). */
  after?: SubmissionPosition;
  /** Bytes the returned rows may add up to (at least one row comes back). */
  maxBytes: number;
  /** Bytes added to each row's measured size for what its view adds (ids, dates, links). */
  rowOverheadBytes: number;
};

/**
 * One slice of the filter's submissions, newest first (created_at desc, id desc), cut where
 * the rows' sizes, measured here in SQL, would pass `maxBytes`: rows past the budget never
 * leave the database. `more` says whether rows follow the last one returned.
 */
export async function selectSubmissionSlice(
  em: EntityManager,
  filter: SubmissionFilter,
  slice: SubmissionSlice,
): Promise<{ rows: ListedSubmissionRow[]; more: boolean; cut: boolean }> {
  const where = whereClause(filter);
  const params: unknown[] = [slice.rowOverheadBytes, ...where.params];
  let after = '';
  if (slice.after) {
    // Both terms: the first lets the list index bound the scan, the second breaks ties.
    after = `and s.created_at <= ${AT_MICROS} and (s.created_at, s.id) < (${AT_MICROS}, ?::bigint)`;
    params.push(slice.after.createdMicros, slice.after.createdMicros, slice.after.id);
  }
  // One row past the page tells whether more follow; its payload is measured, never sent.
  params.push(slice.perPage + 1, slice.after ? 0 : slice.offset, slice.perPage, slice.maxBytes);
  const rows = await selectRows<ListedSubmissionRow & { fetched: string }>(
    em,
    `with page as (
       select ${COLUMNS}, (extract(epoch from s.created_at) * 1000000)::bigint::text as created_us,
         octet_length(s.payload_json::text) + coalesce(octet_length(s.special_normalized::text), 0)
           + coalesce(octet_length(s.user_agent), 0) + coalesce(octet_length(s.referrer), 0)
           + ? as row_bytes
         from submissions s join forms f on f.id = s.form_id
        where ${where.sql} ${after}
        order by s.created_at desc, s.id desc limit ? offset ?
     ), sized as (
       select page.*, row_number() over running as n, sum(row_bytes) over running as bytes_so_far,
         count(*) over () as fetched
         from page
       window running as (order by created_at desc, id desc rows between unbounded preceding and current row)
     )
     select ${LISTED_COLUMNS}, created_us, fetched from sized
      where n <= ? and (n = 1 or bytes_so_far <= ?)
      order by n`,
    params,
  );
  const fetched = Number(rows[0]?.fetched ?? 0);
  return {
    rows: rows.map(({ fetched: _fetched, ...row }) => row),
    more: fetched > rows.length,
    cut: rows.length < Math.min(fetched, slice.perPage),
  };
}

/** A bound microsecond count as a timestamptz, exactly (no floating point on the way). */
const AT_MICROS = `(timestamptz 'epoch' + ?::bigint * interval '1 microsecond')`;

const LISTED_COLUMNS = `id, form_id, form_endpoint_token, payload_json, special_normalized,
  source_ip, user_agent, referrer, is_spam, spam_reason, created_at, updated_at`;

export async function countSubmissions(
  em: EntityManager,
  filter: SubmissionFilter,
): Promise<number> {
  const where = whereClause(filter);
  const [row] = await selectRows<{ total: string }>(
    em,
    `select count(*) as total from submissions s where ${where.sql}`,
    where.params,
  );
  return Number(row?.total ?? 0);
}

/** The submission `id` if it belongs to the account; `id` must be numeric. */
export async function findAccountSubmissionRow(
  em: EntityManager,
  accountId: string,
  id: string,
): Promise<SubmissionRow | null> {
  const [row] = await selectRows<SubmissionRow>(
    em,
    `select ${COLUMNS} from submissions s join forms f on f.id = s.form_id where s.id = ? and s.account_id = ?`,
    [id, accountId],
  );
  return row ?? null;
}

/**
 * Stores a spam verdict unless one is already stored and returns the stored verdict (null
 * when the submission is gone). One statement: its conditions see the row as it is when
 * the row lock is taken, so of two concurrent runs only the first writes. A submission found
 * to be spam gives up its place on a gated form (docs/form-limits.md): it leaves the count
 * (which counts non-spam rows) and its unique value is let go (`unique_key`, set only on
 * gated rows: on others it stays null and the update stays HOT).
 */
export async function recordSpamVerdict(
  em: EntityManager,
  submissionId: string,
  reason: string | null,
): Promise<{ isSpam: boolean; reason: string | null } | null> {
  const [stored] = await selectRows<{ is_spam: boolean; spam_reason: string | null }>(
    em,
    `update submissions set
        is_spam = case when not is_spam and spam_checked_at is null then ? else is_spam end,
        spam_reason = case when not is_spam and spam_checked_at is null then ? else spam_reason end,
        unique_key = case when not is_spam and spam_checked_at is null and ? then null
                          else unique_key end,
        spam_checked_at = coalesce(spam_checked_at, now()),
        updated_at = case when spam_checked_at is null then now() else updated_at end
      where id = ?
      returning is_spam, spam_reason`,
    [reason !== null, reason, reason !== null, submissionId],
  );
  return stored ? { isSpam: stored.is_spam, reason: stored.spam_reason } : null;
}

/** Submissions whose workflow is not started yet, in all accounts. */
export async function countUnstartedSubmissions(em: EntityManager): Promise<number> {
  const [row] = await selectRows<{ total: string }>(
    em,
    'select count(*) as total from pending_workflow_starts',
    [],
  );
  return Number(row?.total ?? 0);
}

/** Of `ids`, those whose spam check is not stored yet (deleted submissions are left out). */
export async function selectIdsAwaitingSpamCheck(
  em: EntityManager,
  ids: string[],
): Promise<string[]> {
  const rows = await selectRows<{ id: string }>(
    em,
    'select id from submissions where id = any(?::bigint[]) and spam_checked_at is null',
    [bigintArray(ids)],
  );
  return rows.map((row) => String(row.id));
}

/**
 * Marks submissions whose workflow runs (or which are gone), in one statement: their pending
 * start is forgotten (`ids` are numeric submission ids).
 */
export async function markWorkflowsStarted(em: EntityManager, ids: string[]): Promise<void> {
  await runStatement(
    em,
    'delete from pending_workflow_starts where submission_id = any(?::bigint[])',
    [bigintArray(ids)],
  );
}

/** Replaces a submission's payload (ingest adds its files' links once they are stored). */
export async function updateSubmissionPayload(
  em: EntityManager,
  submissionId: string,
  payload: Record<string, unknown>,
): Promise<void> {
  await runStatement(
    em,
    'update submissions set payload_json = ?::jsonb, updated_at = now() where id = ?',
    [JSON.stringify(payload), submissionId],
  ).catch(asDriverError(em));
}

/** Marks a submission as a `?test=true` run's, before its workflow starts. */
export async function markTestRun(em: EntityManager, submissionId: string): Promise<void> {
  await runStatement(em, 'update submissions set is_test = true where id = ?', [submissionId]);
}

/** A stored submission's payload, or null when there is none with that id. */
export async function selectSubmissionPayload(
  em: EntityManager,
  submissionId: string,
): Promise<Record<string, unknown> | null> {
  const [row] = await selectRows<{ payload_json: Record<string, unknown> }>(
    em,
    'select payload_json from submissions where id = ?',
    [submissionId],
  );
  return row?.payload_json ?? null;
}
