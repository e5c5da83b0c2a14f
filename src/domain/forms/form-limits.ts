import { createHash } from 'node:crypto';
import type { FormField } from '../../db/entities/form-fields';
import type { FormLimits } from '../../db/entities/form-limits';

export type { FormLimits } from '../../db/entities/form-limits';

/**
 * The most `max_submissions` may be: a gated form's accepted submissions are counted (up to
 * the limit, by index) under its lock at each post (src/db/sql/submission-gates.ts).
 */
export const MAX_SUBMISSIONS_CAP = 100_000;
/** The longest `closed_message`, in characters. */
export const CLOSED_MESSAGE_MAX_CHARS = 2000;

/** Why a gated form takes nothing now. */
export type ClosedReason = 'not_open_yet' | 'closed' | 'full';

/**
 * Where a form stands against its window at `nowMs` and, when given, its count of accepted
 * (non-spam) submissions: null when open, else why not. Without `accepted` only the window is
 * decided (ingest's early check; the count is decided in the insert's transaction).
 */
export function closedReason(
  limits: FormLimits | null | undefined,
  nowMs: number,
  accepted?: number,
): ClosedReason | null {
  if (!limits) return null;
  if (limits.opens_at !== null && nowMs < Date.parse(limits.opens_at)) return 'not_open_yet';
  if (limits.closes_at !== null && nowMs >= Date.parse(limits.closes_at)) return 'closed';
  if (accepted !== undefined && limits.max_submissions !== null) {
    if (accepted >= limits.max_submissions) return 'full';
  }
  return null;
}

/** What a closed form says: the owner's `closed_message`, else ours for the reason. */
export function closedMessage(limits: FormLimits, reason: ClosedReason): string {
  if (limits.closed_message) return limits.closed_message;
  if (reason === 'not_open_yet')
    return `This form is not open yet: it opens at ${limits.opens_at}.`;
  if (reason === 'full') return 'This form has all the submissions it takes and is closed.';
  return 'This form is closed and no longer takes submissions.';
}

/** `unique_field` must name a field of the list; a problem as `limits.unique_field: …`, or null. */
export function limitsProblem(
  fields: FormField[] | null | undefined,
  limits: FormLimits | null | undefined,
): string | null {
  const name = limits?.unique_field;
  if (!name) return null;
  if (fields?.some((field) => field.name === name)) return null;
  return `limits.unique_field: "${name}" must name a field of the form's fields`;
}

/**
 * The unique field's value as compared: trimmed, lower-cased for an `email` field; numbers
 * and booleans (JSON ingest) as their text. Null when there is nothing to compare (no gate on
 * a field, the field is not in the list any more, or no single non-empty value came).
 */
export function uniqueValueOf(
  limits: FormLimits | null | undefined,
  fields: FormField[] | null | undefined,
  payload: Record<string, unknown>,
): string | null {
  const name = limits?.unique_field;
  const field = name ? fields?.find((f) => f.name === name) : undefined;
  if (!field) return null;
  const raw = payload[field.name];
  const text =
    typeof raw === 'string'
      ? raw.trim()
      : typeof raw === 'number' || typeof raw === 'boolean'
        ? String(raw)
        : '';
  if (text === '') return null;
  return field.type === 'email' ? text.toLowerCase() : text;
}

/**
 * What is stored and indexed for a unique value: a SHA-256 of the field's name and value, so
 * a value of any length fits the index, and a value of a field gated before does not hold a
 * place for another field.
 */
export function uniqueKeyOf(field: string, value: string): string {
  return createHash('sha256').update(`${field}\0${value}`).digest('base64url');
}
