import type { EntityManager } from '@mikro-orm/postgresql';
import { insertSubmissionOnce, type NewSubmissionRow } from '../../db/sql/submission-inserts';
import {
  countAcceptedUpTo,
  isUniqueValueClash,
  lockFormGates,
  readGateFacts,
  setSubmissionUniqueKey,
} from '../../db/sql/submission-gates';
import {
  closedMessage,
  closedReason,
  uniqueKeyOf,
  uniqueValueOf,
  type ClosedReason,
  type FormLimits,
} from '../forms/form-limits';

/** A gated form takes nothing now (docs/form-limits.md): 403 `form_closed` at ingest. */
export class FormClosedError extends Error {
  override name = 'FormClosedError';

  constructor(
    readonly reason: ClosedReason,
    readonly limits: Pick<FormLimits, 'opens_at' | 'closes_at'>,
    message: string,
  ) {
    super(message);
  }
}

/** The form's unique field's value came before (docs/form-limits.md): 409 `already_submitted`. */
export class AlreadySubmittedError extends Error {
  override name = 'AlreadySubmittedError';

  constructor(readonly field: string) {
    super(`a submission with this ${field} was already accepted; each ${field} may send one`);
  }
}

/** The refusal of a form whose window is not open at `nowMs` (the count aside), else null. */
export function outsideWindow(
  limits: FormLimits | null | undefined,
  nowMs: number,
): FormClosedError | null {
  const reason = closedReason(limits, nowMs);
  return reason && limits
    ? new FormClosedError(reason, limits, closedMessage(limits, reason))
    : null;
}

/**
 * Whether a form is closed now (its hosted page shows the closed message instead): its window
 * first, then its count (read, no lock: a page only shows it). Null when it is open.
 */
export async function closedNow(
  em: EntityManager,
  form: { id: string; limits?: FormLimits | null },
  nowMs: number,
): Promise<FormClosedError | null> {
  const { limits } = form;
  if (!limits) return null;
  const early = outsideWindow(limits, nowMs);
  if (early || limits.max_submissions === null) return early;
  const accepted = await countAcceptedUpTo(em, form.id, limits.max_submissions);
  const reason = closedReason(limits, nowMs, accepted);
  return reason ? new FormClosedError(reason, limits, closedMessage(limits, reason)) : null;
}

/**
 * Stores a submission of a gated form (one with `limits`), deciding its gates in the
 * transaction of its insert (`tx`, a transaction). Exact under concurrent posts: the form's
 * row is locked first, so the gated posts of one form take turns; then its gates are read as
 * they are now, the window checked, its accepted (non-spam) submissions counted and the unique
 * value looked up, and the row inserted (with ingest's own insert statement, so its workflow
 * start is recorded the same way) before the lock is let go at the commit. A spam row (a
 * filled honeypot) is answered as any other, closed or repeated alike, but counts for nothing
 * and keeps no unique value. Forms without limits never come here: they keep ingest's group
 * commit. False when an earlier attempt stored the row already (a retry after a lost commit).
 */
export async function insertGatedSubmission(
  tx: EntityManager,
  row: NewSubmissionRow,
  nowMs: number,
): Promise<boolean> {
  const gates = await lockFormGates(tx, row.formId);
  const limits = gates?.limits ?? null;
  const value = uniqueValueOf(limits, gates?.fields, row.payloadJson);
  const uniqueKey = value === null ? null : uniqueKeyOf(limits!.unique_field!, value);
  const facts = await readGateFacts(tx, {
    submissionId: row.id,
    formId: row.formId,
    countUpTo: limits?.max_submissions ?? null,
    uniqueKey,
  });
  if (facts.stored) return false;
  if (limits) {
    const reason = closedReason(limits, nowMs, facts.accepted);
    if (reason) throw new FormClosedError(reason, limits, closedMessage(limits, reason));
    if (facts.taken) throw new AlreadySubmittedError(limits.unique_field!);
  }
  const inserted = await insertSubmissionOnce(tx, row);
  if (inserted && uniqueKey !== null && !row.isSpam) {
    await setSubmissionUniqueKey(tx, row.id, uniqueKey).catch((error: unknown) => {
      // Unreachable under the lock; the unique index holds should a path ever miss it.
      if (isUniqueValueClash(error)) throw new AlreadySubmittedError(limits!.unique_field!);
      throw error;
    });
  }
  return inserted;
}
