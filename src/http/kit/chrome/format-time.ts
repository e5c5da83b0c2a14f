/** A time as the dashboard shows it: UTC to the minute, `2026-11-27 14:05 UTC`; null: `never`. */
export function formatTime(date: Date | null | undefined): string {
  if (!date) return 'never';
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
