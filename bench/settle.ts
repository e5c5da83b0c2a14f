import type { Pool } from 'pg';
import { drainWorkflows, type Drain } from './drain';
import { round } from './util';

/** What the pause after a case did: unstarted submissions discarded, then the started awaited. */
export type Settle = {
  discarded: number;
  discardS: number;
  /** Null when only discarded (the worker was paused: nothing could be awaited). */
  drain: Drain | null;
};

/** Submissions stored for a case against answers counted as accepted (200 / 302). */
export type Accounting = {
  answered: number;
  stored: number;
  /** Answered but not stored: must be 0. */
  missing: number;
  /** Stored but not counted: requests in flight when autocannon stopped (<= connections). */
  unanswered: number;
};

/** The highest submission id so far: what a case stores comes after it. */
export async function lastSubmissionId(db: Pool): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    'select coalesce(max(id), 0)::text as id from submissions',
  );
  return rows[0].id;
}

/** The form's submissions stored after `afterId` (before any discard). */
export async function accountFor(
  db: Pool,
  formId: string,
  afterId: string,
  answered: number,
): Promise<Accounting> {
  const { rows } = await db.query<{ n: number }>(
    'select count(*)::int as n from submissions where form_id = $1 and id > $2',
    [formId, afterId],
  );
  const stored = rows[0].n;
  return {
    answered,
    stored,
    missing: Math.max(0, answered - stored),
    unanswered: Math.max(0, stored - answered),
  };
}

/**
 * Deletes the form's submissions whose workflow start is still pending and unclaimed, with
 * their rows of pending_workflow_starts. That table has no foreign key (nothing cascades): a
 * worker would skip and forget such a row at its claim (src/pipeline/2-claim-starts.ts), but
 * 8 at a time, which after a case of many thousands is a drain of its own. Rows a worker has
 * claimed (its start under way) are left to it; `skip locked` passes over a claim in progress.
 */
async function discardUnstarted(db: Pool, formId: string): Promise<number> {
  const result = await db.query(
    `with gone as (
       delete from pending_workflow_starts p
        where p.claimed_until <= now()
          and p.submission_id in (
            select w.submission_id from pending_workflow_starts w
              join submissions s on s.id = w.submission_id
             where s.form_id = $1 and w.claimed_until <= now()
               for update of w skip locked)
       returning p.submission_id)
     delete from submissions s using gone where s.id = gone.submission_id`,
    [formId],
  );
  return result.rowCount ?? 0;
}

/**
 * The bounded pause between cases: discard what has not started, then (unless `wait` is false)
 * wait for the workflows already started (at most the admission window) to take up their
 * submissions, so the next case starts on a quiet system.
 */
export async function settle(db: Pool, formId: string, wait = true): Promise<Settle> {
  const started = Date.now();
  const discarded = await discardUnstarted(db, formId);
  const discardS = round((Date.now() - started) / 1000, 1);
  return { discarded, discardS, drain: wait ? await drainWorkflows(db) : null };
}
