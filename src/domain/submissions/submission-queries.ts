import type { EntityManager } from '@mikro-orm/postgresql';
import type { Range } from './range';
import type { SubmissionRow } from './submission-row';

const RANGE_INTERVALS: Record<Range, string | null> = {
  '24h': '24 hours',
  '7d': '7 days',
  '30d': '30 days',
  all: null,
};

export type SubmissionFilter = {
  accountId: string;
  spam: boolean;
  formId?: string;
  q?: string;
  range: Range;
};

const COLUMNS = `s.id, s.form_id, f.endpoint_token as form_endpoint_token, s.payload_json, s.special_normalized,
  s.source_ip, s.user_agent, s.referrer, s.is_spam, s.spam_reason, s.created_at, s.updated_at`;

function whereClause(filter: SubmissionFilter): { sql: string; params: unknown[] } {
  const parts = ['s.account_id = ?', 's.is_spam = ?'];
  const params: unknown[] = [filter.accountId, filter.spam];
  if (filter.formId) {
    parts.push('s.form_id = ?');
    params.push(filter.formId);
  }
  const interval = RANGE_INTERVALS[filter.range];
  if (interval) parts.push(`s.created_at >= now() - interval '${interval}'`);
  if (filter.q) {
    // websearch syntax: words, "quoted phrases", -exclusions, OR. Served by the GIN index.
    parts.push(`s.search_vector @@ websearch_to_tsquery('simple', ?)`);
    params.push(filter.q);
  }
  return { sql: parts.join(' and '), params };
}

/** One page of an account's submissions, newest first, and the total matching. */
export async function listSubmissions(
  em: EntityManager,
  filter: SubmissionFilter,
  page: { page: number; perPage: number },
): Promise<{ rows: SubmissionRow[]; total: number }> {
  const where = whereClause(filter);
  const connection = em.getConnection();
  const [rows, totals] = await Promise.all([
    connection.execute<SubmissionRow[]>(
      `select ${COLUMNS} from submissions s join forms f on f.id = s.form_id
        where ${where.sql} order by s.created_at desc, s.id desc limit ? offset ?`,
      [...where.params, page.perPage, (page.page - 1) * page.perPage],
    ),
    connection.execute<{ total: string }[]>(
      `select count(*) as total from submissions s where ${where.sql}`,
      where.params,
    ),
  ]);
  return { rows, total: Number(totals[0]?.total ?? 0) };
}

export async function findAccountSubmission(
  em: EntityManager,
  accountId: string,
  id: string,
): Promise<SubmissionRow | null> {
  if (!/^\d{1,18}$/.test(id)) return null;
  const rows = await em
    .getConnection()
    .execute<SubmissionRow[]>(
      `select ${COLUMNS} from submissions s join forms f on f.id = s.form_id where s.id = ? and s.account_id = ?`,
      [id, accountId],
    );
  return rows[0] ?? null;
}
