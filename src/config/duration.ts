/** Parses the durations our environment accepts: `250ms`, `3s`, `2m`, `1h` (a bare number means ms). */
export function parseDuration(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (!match) throw new Error(`invalid duration "${text}" (use e.g. 250ms, 3s, 2m)`);
  const value = Number(match[1]);
  const unit = match[2] ?? 'ms';
  const factor = unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 3_600_000;
  return Math.round(value * factor);
}
