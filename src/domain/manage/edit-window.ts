/**
 * How long after a submission its submitter may still change it (docs/manage-links.md): a
 * form's `edit_until`, an ISO 8601 duration of days, hours and minutes (`P7D`, `PT12H`,
 * `P1DT12H30M`), at most EDIT_UNTIL_MAX_DAYS; a form's `limits.closes_at` always ends it.
 */

/** The longest `edit_until`: a year. */
export const EDIT_UNTIL_MAX_DAYS = 365;
const MINUTE_MS = 60_000;
const MAX_MS = EDIT_UNTIL_MAX_DAYS * 24 * 60 * MINUTE_MS;

// Days, hours and minutes only: months and years have no fixed length, seconds no use here.
const DURATION = /^P(?:(\d{1,3})D)?(?:T(?:(\d{1,4})H)?(?:(\d{1,6})M)?)?$/;

/**
 * The duration's length in milliseconds, or null when it is not one we take: not of the form
 * `P[nD][T[nH][nM]]`, empty (`P`, `PT`), zero, or longer than EDIT_UNTIL_MAX_DAYS.
 */
export function editDurationMs(text: string): number | null {
  const match = DURATION.exec(text);
  if (!match || text === 'P' || text.endsWith('T')) return null;
  const [, days, hours, minutes] = match;
  const ms =
    (Number(days ?? 0) * 24 * 60 + Number(hours ?? 0) * 60 + Number(minutes ?? 0)) * MINUTE_MS;
  return ms > 0 && ms <= MAX_MS ? ms : null;
}

/**
 * Until when a submission received at `receivedAt` may be changed: `edit_until` after it,
 * capped by the form's `closes_at`; null when neither sets an end.
 */
export function editDeadline(
  receivedAt: Date,
  editUntil: string | null,
  closesAt: string | null,
): Date | null {
  const length = editUntil === null ? null : editDurationMs(editUntil);
  const own = length === null ? null : receivedAt.getTime() + length;
  const closes = closesAt === null ? null : Date.parse(closesAt);
  const ends = [own, closes].filter((value): value is number => value !== null);
  return ends.length === 0 ? null : new Date(Math.min(...ends));
}
