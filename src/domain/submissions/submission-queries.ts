import type { EntityManager } from '@mikro-orm/postgresql';
import {
  countSubmissions,
  findAccountSubmissionRow,
  selectSubmissions,
  type SubmissionFilter,
  type SubmissionRow,
} from '../../db/sql/submissions';

export type { SubmissionFilter, SubmissionRow } from '../../db/sql/submissions';

/** One page of an account's submissions, newest first, and the total matching. */
export async function listSubmissions(
  em: EntityManager,
  filter: SubmissionFilter,
  page: { page: number; perPage: number },
): Promise<{ rows: SubmissionRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    selectSubmissions(em, filter, page),
    countSubmissions(em, filter),
  ]);
  return { rows, total };
}

/** The submission `id` of the account; null when there is none or `id` is not a submission id. */
export async function findAccountSubmission(
  em: EntityManager,
  accountId: string,
  id: string,
): Promise<SubmissionRow | null> {
  if (!/^\d{1,18}$/.test(id)) return null;
  return findAccountSubmissionRow(em, accountId, id);
}
