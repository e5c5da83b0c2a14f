/*
 * The rows the Google Sheets plugin writes (docs/plugins.md). The first row is the header:
 * `submission_id`, `received_at`, then one column per known field name in the order fields
 * first appeared, and one `extra` column holding any other submitted names as JSON. Known
 * names are the plugin's include_fields (the only names it is sent), else the form's field
 * list, else STANDARD_COLUMNS,
 * and any name the sheet's header already has: a submitter cannot add columns. A new known
 * field gets a new column at the end, never between others, so rows written earlier keep
 * their meaning; each row is built against the header as it is in the sheet.
 */

/** The two columns every row starts with, by position (a field may share their names). */
export const LEADING_COLUMNS = ['submission_id', 'received_at'] as const;

/** The column of the names that have no column of their own, as one JSON object. */
export const EXTRA_COLUMN = 'extra';

/** A free-form form's columns when the plugin chooses none (include_fields). */
export const STANDARD_COLUMNS = ['email', 'name', 'message'] as const;

/** The names that may have a column of their own (see the top of this file). */
export function columnNames(
  formFields: readonly string[] | null,
  includeFields: readonly string[] | null,
): string[] {
  return [...(includeFields ?? formFields ?? STANDARD_COLUMNS)].filter(
    (name) => name !== EXTRA_COLUMN,
  );
}

/** Google keeps at most this many characters in a cell. */
export const MAX_CELL_CHARS = 50_000;

/** One cell as written with `valueInputOption=RAW`: numbers and booleans stay typed. */
export type CellValue = string | number | boolean;

/** The submitted names that go into the `extra` column: those with no column and none to get. */
function extraNames(
  header: readonly string[],
  payload: Record<string, unknown>,
  columns: readonly string[],
): string[] {
  const own = new Set([...header.slice(LEADING_COLUMNS.length), ...columns]);
  own.delete(EXTRA_COLUMN);
  return Object.keys(payload).filter((name) => !own.has(name));
}

/**
 * The columns to add at the end of the header: any leading column it is too short to have,
 * then the known names (`columns`: columnNames) of the payload it lacks, in the payload's
 * order, then `extra` when some other name was submitted and the header has no `extra` yet.
 */
export function missingColumns(
  header: readonly string[],
  payload: Record<string, unknown>,
  columns: readonly string[],
): string[] {
  const present = new Set(header.slice(LEADING_COLUMNS.length));
  const allowed = new Set(columns);
  const fields = Object.keys(payload).filter(
    (name) => allowed.has(name) && !present.has(name) && name !== EXTRA_COLUMN,
  );
  const extra =
    extraNames(header, payload, columns).length > 0 && !present.has(EXTRA_COLUMN)
      ? [EXTRA_COLUMN]
      : [];
  return [...LEADING_COLUMNS.slice(header.length), ...fields, ...extra];
}

/**
 * The row of one submission aligned to the header: its id and time in the first two columns,
 * each field under the first column of its name, the other names (see extraNames) as one JSON
 * object under `extra`, '' where a column has no value.
 */
export function alignedRow(
  header: readonly string[],
  submission: { id: string; receivedAt: Date; payload: Record<string, unknown> },
  columns: readonly string[],
): CellValue[] {
  const row: CellValue[] = header.map(() => '');
  row[0] = submission.id;
  row[1] = submission.receivedAt.toISOString();
  const columnOf = new Map<string, number>();
  header.forEach((name, index) => {
    if (index >= LEADING_COLUMNS.length && !columnOf.has(name)) columnOf.set(name, index);
  });
  const extras = new Set(extraNames(header, submission.payload, columns));
  const extra: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(submission.payload)) {
    if (extras.has(name)) extra[name] = value;
    else {
      const column = columnOf.get(name);
      if (column !== undefined) row[column] = cellValue(value);
    }
  }
  const extraColumn = columnOf.get(EXTRA_COLUMN);
  if (extraColumn !== undefined && extras.size > 0) row[extraColumn] = cellValue(extra);
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
