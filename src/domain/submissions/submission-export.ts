import type { EntityManager } from '@mikro-orm/postgresql';
import {
  selectExportBatch,
  selectFieldNames,
  type ExportRow,
} from '../../db/sql/submission-export';
import type { SubmissionFilter, SubmissionPosition } from '../../db/sql/submissions';

export type { ExportRow } from '../../db/sql/submission-export';

/** Rows read per query: small enough to keep memory flat, large enough to keep queries few. */
const BATCH_SIZE = 500;

/**
 * Columns of a CSV export: the union of the top-level field names of the exported
 * submissions, in name order, read in a first pass over the same filter. A payload's
 * names are bounded by ingest's field limits, but a form can collect many over time, so
 * only the first MAX_FIELD_COLUMNS names (in order) become columns (the JSON export keeps all).
 */
export const MAX_FIELD_COLUMNS = 1000;

export function exportFieldNames(em: EntityManager, filter: SubmissionFilter): Promise<string[]> {
  return selectFieldNames(em, filter, MAX_FIELD_COLUMNS);
}

/**
 * The filter's submissions, newest first, read in keyset batches: one batch is in memory at
 * a time, and the next is read only when the consumer asks (stream backpressure).
 */
export async function* exportSubmissions(
  em: EntityManager,
  filter: SubmissionFilter,
  batchSize = BATCH_SIZE,
): AsyncGenerator<ExportRow> {
  let after: SubmissionPosition | null = null;
  for (;;) {
    const batch = await selectExportBatch(em, filter, after, batchSize);
    yield* batch;
    const last = batch.at(-1);
    if (!last || batch.length < batchSize) return;
    after = { createdMicros: last.created_us, id: last.id };
  }
}
