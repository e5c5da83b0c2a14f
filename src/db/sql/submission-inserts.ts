import type { EntityManager } from '@mikro-orm/postgresql';
import { asDriverError, selectRows, selectRowsBound } from './execute';
import { PENDING_STARTS_CHANNEL } from './workflow-start-claims';

/**
 * A new submission id from the table's sequence, taken before the insert so that a retried
 * insert (the connection dropped after PostgreSQL committed) carries the same id.
 */
export async function nextSubmissionId(em: EntityManager): Promise<string> {
  const [id] = await reserveSubmissionIds(em, 1);
  return id!;
}

/** `count` new submission ids in one round trip, ascending (ingest takes them in blocks). */
export async function reserveSubmissionIds(em: EntityManager, count: number): Promise<string[]> {
  const rows = await selectRows<{ id: string }>(
    em,
    "select nextval('submissions_id_seq')::text as id from generate_series(1, ?)",
    [count],
  );
  return rows.map((row) => row.id);
}

/** A submission's own columns as ingest stores them; the rest take their defaults. */
export type NewSubmissionRow = {
  id: string;
  formId: string;
  accountId: string;
  payloadJson: Record<string, unknown>;
  specialNormalized: Record<string, unknown> | null;
  sourceIp: string | null;
  userAgent: string | null;
  referrer: string | null;
  isSpam: boolean;
  spamReason: string | null;
  fillMs: number | null;
  /** When ingest received it (its receipt says so too); absent: the transaction's time. */
  createdAt?: Date;
  /** The ingest request's trace, for the workflow start (only while tracing is on). */
  traceparent?: string | null;
  /** How long no worker may claim its workflow start (a test run starts its own); 0 if unset. */
  startHeldMs?: number;
  /** The SHA-256 of its manage link's secret (docs/manage-links.md); none when unset. */
  manageKeyHash?: string | null;
};

/** A row as insertSubmissionGroup sends it: its id, and its columns as one JSON object. */
export type EncodedSubmissionRow = { id: string; json: string };

/** Encodes a row once (its size tells a group when it is full). */
export function encodeSubmissionRow(row: NewSubmissionRow): EncodedSubmissionRow {
  const json = JSON.stringify({
    id: row.id,
    form_id: row.formId,
    account_id: row.accountId,
    payload_json: row.payloadJson,
    special_normalized: row.specialNormalized,
    source_ip: row.sourceIp,
    user_agent: row.userAgent,
    referrer: row.referrer,
    is_spam: row.isSpam,
    spam_reason: row.spamReason,
    fill_ms: row.fillMs,
    created_at: row.createdAt?.toISOString() ?? null,
    held_ms: row.startHeldMs ?? 0,
    traceparent: row.traceparent ?? null,
    manage_key_hash: row.manageKeyHash ?? null,
  });
  return { id: row.id, json };
}

/**
 * Inserts the submissions whose id is not there yet (an earlier attempt committed them) in
 * one statement, so one transaction; returns the ids this call inserted. The same statement
 * records their workflow starts as pending, so a worker finds them whatever happens after the
 * commit, and tells the listening workers with one NOTIFY (delivered at the commit; none when
 * nothing was inserted). The rows travel as one JSON array: one parameter however many rows.
 */
export async function insertSubmissionGroup(
  em: EntityManager,
  rows: readonly EncodedSubmissionRow[],
): Promise<Set<string>> {
  const [result] = await selectRowsBound<{ ids: string[] }>(
    em,
    `with input as (
       select * from jsonb_to_recordset(?::jsonb) as r(id bigint, form_id bigint,
         account_id bigint, payload_json jsonb, special_normalized jsonb, source_ip text,
         user_agent text, referrer text, is_spam boolean, spam_reason text, fill_ms integer,
         created_at timestamptz, held_ms integer, traceparent text, manage_key_hash text)
     ), inserted as (
       insert into submissions (id, form_id, account_id, payload_json, special_normalized,
              source_ip, user_agent, referrer, is_spam, spam_reason, fill_ms, created_at,
              manage_key_hash)
       select id, form_id, account_id, payload_json, special_normalized, source_ip,
              user_agent, referrer, is_spam, spam_reason, fill_ms, coalesce(created_at, now()),
              manage_key_hash
         from input
       on conflict (id) do nothing
       returning id, created_at
     ), pending as (
       insert into pending_workflow_starts (submission_id, created_at, claimed_until, traceparent)
       select i.id, now(), now() + (input.held_ms * interval '1 millisecond'),
              input.traceparent
         from inserted i join input on input.id = i.id
       returning submission_id
     )
     select array(select submission_id::text from pending) as ids,
            (select count(*) from (select pg_notify('${PENDING_STARTS_CHANNEL}', '')
                                     from pending limit 1) as once) as notified`,
    [`[${rows.map((row) => row.json).join(',')}]`],
  ).catch(asDriverError(em));
  return new Set(result?.ids ?? []);
}

/** Inserts one submission unless its id is there (see insertSubmissionGroup); true if it did. */
export async function insertSubmissionOnce(
  em: EntityManager,
  row: NewSubmissionRow,
): Promise<boolean> {
  return (await insertSubmissionGroup(em, [encodeSubmissionRow(row)])).has(row.id);
}
