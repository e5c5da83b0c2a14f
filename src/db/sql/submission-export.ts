import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from './execute';
import { whereClause, type SubmissionFilter, type SubmissionPosition } from './submissions';

/** A submission as exported: its fields and the metadata a person asks about. */
export type ExportRow = {
  id: string;
  form_id: string;
  created_at: Date;
  created_us: string;
  payload_json: Record<string, unknown>;
  source_ip: string | null;
  user_agent: string | null;
  referrer: string | null;
  is_spam: boolean;
  spam_reason: string | null;
};

const AT_MICROS = `(timestamptz 'epoch' + ?::bigint * interval '1 microsecond')`;

/**
 * Up to `limit` of the filter's submissions, newest first, right after `after` (keyset: the
 * list indexes serve every batch in the same time, however deep the export is).
 */
export function selectExportBatch(
  em: EntityManager,
  filter: SubmissionFilter,
  after: SubmissionPosition | null,
  limit: number,
): Promise<ExportRow[]> {
  const where = whereClause(filter);
  const params = [...where.params];
  let keyset = '';
  if (after) {
    keyset = `and s.created_at <= ${AT_MICROS} and (s.created_at, s.id) < (${AT_MICROS}, ?::bigint)`;
    params.push(after.createdMicros, after.createdMicros, after.id);
  }
  params.push(limit);
  return selectRows<ExportRow>(
    em,
    `select s.id::text as id, s.form_id::text as form_id, s.created_at,
        (extract(epoch from s.created_at) * 1000000)::bigint::text as created_us,
        s.payload_json, s.source_ip, s.user_agent, s.referrer, s.is_spam, s.spam_reason
       from submissions s
      where ${where.sql} ${keyset}
      order by s.created_at desc, s.id desc limit ?`,
    params,
  );
}

/** The distinct top-level field names of the filter's submissions, sorted, at most `limit`. */
export async function selectFieldNames(
  em: EntityManager,
  filter: SubmissionFilter,
  limit: number,
): Promise<string[]> {
  const where = whereClause(filter);
  const rows = await selectRows<{ name: string }>(
    em,
    `select name from (
       select distinct jsonb_object_keys(s.payload_json) as name from submissions s where ${where.sql}
     ) names order by name limit ?`,
    [...where.params, limit],
  );
  return rows.map((row) => row.name);
}
