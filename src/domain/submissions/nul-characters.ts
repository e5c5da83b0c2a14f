/** True when a JSON value holds a NUL character in any string or key, however deep. */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).some(([key, inner]) => key.includes('\0') || holdsNul(inner));
  return false;
}

/**
 * The fields (names shown with NUL as `\0`) whose name or value holds a NUL character:
 * PostgreSQL's jsonb cannot store one, so such a submission is refused as invalid.
 */
export function fieldsWithNul(payload: Record<string, unknown>): string[] {
  return Object.entries(payload)
    .filter(([name, value]) => name.includes('\0') || holdsNul(value))
    .map(([name]) => name.replaceAll('\0', '\\0').slice(0, 64));
}
