/** A form filled in less time than this (ms) was not filled by a person. */
export const MIN_FILL_MS = 3_000;

/** Older page-load stamps are ignored: a tab left open for days says nothing. */
export const MAX_FILL_MS = 24 * 60 * 60 * 1_000;

// Milliseconds since the epoch as the embed script writes them (`Date.now()`), optionally
// with a fraction; anything else is not a timestamp.
const TIMESTAMP_TEXT = /^\d{1,16}(?:\.\d+)?$/;

/**
 * How long the form took to fill (ms), from the `_ts` page-load stamp the embed markup adds
 * and the time ingest received the submission. Null ("unknown", never spam) when the stamp is
 * missing or empty (no JavaScript), not a number, in the future, or older than a day.
 */
export function fillMsFromStamp(stamp: unknown, receivedAtMs: number): number | null {
  const text =
    typeof stamp === 'number' ? String(stamp) : typeof stamp === 'string' ? stamp.trim() : '';
  if (!TIMESTAMP_TEXT.test(text)) return null;
  const fillMs = Math.round(receivedAtMs - Number(text));
  if (!Number.isSafeInteger(fillMs) || fillMs < 0 || fillMs > MAX_FILL_MS) return null;
  return fillMs;
}

export function filledTooFast(fillMs: number | null): boolean {
  return fillMs !== null && fillMs < MIN_FILL_MS;
}
