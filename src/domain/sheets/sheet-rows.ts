/*
 * The rows the Google Sheets plugin writes (docs/plugins.md). The first row is the header:
 * `submission_id`, `received_at`, then one column per field name in the order fields first
 * appeared. A new field gets a new column at the end, never between others, so rows written
 * earlier keep their meaning; each row is built against the header as it is in the sheet.
 */

/** The two columns every row starts with, by position (a field may share their names). */
export const LEADING_COLUMNS = ['submission_id', 'received_at'] as const;

/** Google keeps at most this many characters in a cell. */
export const MAX_CELL_CHARS = 50_000;

/** One cell as written with `valueInputOption=RAW`: numbers and booleans stay typed. */
export type CellValue = string | number | boolean;

/**
 * The columns to add at the end of the header: any leading column it is too short to have,
 * then the field names it lacks, in the payload's order (all of them for an empty sheet).
 */
export function missingColumns(
  header: readonly string[],
  payload: Record<string, unknown>,
): string[] {
  const known = new Set(header.slice(LEADING_COLUMNS.length));
  const fields = Object.keys(payload).filter((name) => !known.has(name));
  return [...LEADING_COLUMNS.slice(header.length), ...fields];
}

/**
 * The row of one submission aligned to the header: its id and time in the first two columns,
 * each field under the first column of its name, '' where it has no value.
 */
export function alignedRow(
  header: readonly string[],
  submission: { id: string; receivedAt: Date; payload: Record<string, unknown> },
): CellValue[] {
  const row: CellValue[] = header.map(() => '');
  row[0] = submission.id;
  row[1] = submission.receivedAt.toISOString();
  const columnOf = new Map<string, number>();
  header.forEach((name, index) => {
    if (index >= LEADING_COLUMNS.length && !columnOf.has(name)) columnOf.set(name, index);
  });
  for (const [name, value] of Object.entries(submission.payload)) {
    const column = columnOf.get(name);
    if (column !== undefined) row[column] = cellValue(value);
  }
  return row;
}

/** A submitted value as one cell: lists joined, anything else as its JSON, cut to fit. */
export function cellValue(value: unknown): CellValue {
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'boolean') return value;
  if (value === null || value === undefined) return '';
  const text =
    typeof value === 'string'
      ? value
      : Array.isArray(value)
        ? value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join(', ')
        : JSON.stringify(value);
  return text.length > MAX_CELL_CHARS ? text.slice(0, MAX_CELL_CHARS) : text;
}
