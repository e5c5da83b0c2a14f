import { fieldText } from '../manage/plugin-configs';

/** What a record is made of: the submission (its fields already chosen by the plugin). */
export type RecordSource = {
  submissionId: string;
  createdAt: Date;
  payload: Record<string, unknown>;
};

/** The columns every record fills besides the submitted fields (docs/plugins.md). */
export const AIRTABLE_ID_FIELD = 'Submission ID';
export const AIRTABLE_RECEIVED_FIELD = 'Received at';

/**
 * The body of `POST /v0/{base}/{table}`: one record, each submitted value as text (arrays
 * joined), then the submission's id and time, which a submitted field of the same name does
 * not replace. `typecast` lets Airtable convert the text to the column's type (a number, a
 * date, a select's option). Airtable has no formulas in cells, so a value such as `=1+1` is
 * stored as the text it is.
 */
export function airtableRecordBody(source: RecordSource): {
  records: Array<{ fields: Record<string, string> }>;
  typecast: true;
} {
  // Built from entries: a field named `__proto__` is a field like any other.
  const fields: Record<string, string> = Object.fromEntries([
    ...Object.entries(source.payload).map(([name, value]) => [name, fieldText(value)]),
    [AIRTABLE_ID_FIELD, source.submissionId],
    [AIRTABLE_RECEIVED_FIELD, source.createdAt.toISOString()],
  ]);
  return { records: [{ fields }], typecast: true };
}

/** `/v0/{base}/{table}` under the API's base URL, the table's name or id escaped. */
export function airtableRecordsUrl(apiUrl: string, base: string, table: string): string {
  return `${apiUrl}/v0/${encodeURIComponent(base)}/${encodeURIComponent(table)}`;
}
