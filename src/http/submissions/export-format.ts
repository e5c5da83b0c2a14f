import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { ExportRow } from '../../domain/submissions/submission-export';

// The two export formats, as streams of the rows an async iterable yields: nothing is
// collected, so an export of any size runs in the memory of one batch (docs/dashboard.md).

/** The columns around the fields; field columns take their names as they are. */
const LEADING = ['submission_id', 'received_at'];
const TRAILING = ['source_ip', 'user_agent', 'referrer', 'is_spam', 'spam_reason'];

/** A field's value as one cell: texts as they are, lists joined by "; ", files by name. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return value.map(cellText).join('; ');
  const file = value as { filename?: unknown };
  if (typeof file.filename === 'string') return file.filename;
  return JSON.stringify(value);
}

export function csvColumns(fieldNames: readonly string[]): string[] {
  return [...LEADING, ...fieldNames, ...TRAILING];
}

/** One row's cells, in csvColumns order. */
export function csvCells(row: ExportRow, fieldNames: readonly string[]): string[] {
  return [
    row.id,
    new Date(row.created_at).toISOString(),
    ...fieldNames.map((name) =>
      Object.hasOwn(row.payload_json, name) ? cellText(row.payload_json[name]) : '',
    ),
    row.source_ip ?? '',
    row.user_agent ?? '',
    row.referrer ?? '',
    String(row.is_spam),
    row.spam_reason ?? '',
  ];
}

/**
 * The CSV of the rows, a header line first. Cells starting with = + - @ (or a tab or a
 * carriage return) get a leading ' so spreadsheets do not run them as formulas (csv-stringify's
 * escape_formulas); the header, made of field names people typed, is escaped the same way.
 */
export function csvStream(
  rows: AsyncIterable<ExportRow>,
  fieldNames: readonly string[],
): [Readable, NodeJS.ReadWriteStream] {
  async function* records() {
    yield csvColumns(fieldNames);
    for await (const row of rows) yield csvCells(row, fieldNames);
  }
  return [Readable.from(records()), stringify({ escape_formulas: true })];
}

/** The JSON export: one array, one object per submission, every field as submitted. */
export function jsonStream(rows: AsyncIterable<ExportRow>): Readable {
  async function* chunks() {
    yield '[';
    let separator = '\n';
    for await (const row of rows) {
      yield (
        separator +
        JSON.stringify({
          id: row.id,
          form_id: row.form_id,
          received_at: new Date(row.created_at).toISOString(),
          fields: row.payload_json,
          source_ip: row.source_ip,
          user_agent: row.user_agent,
          referrer: row.referrer,
          is_spam: row.is_spam,
          spam_reason: row.spam_reason,
        })
      );
      separator = ',\n';
    }
    yield '\n]\n';
  }
  return Readable.from(chunks());
}
