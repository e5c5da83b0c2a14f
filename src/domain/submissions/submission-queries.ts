import type { EntityManager } from '@mikro-orm/postgresql';
import { SubmissionFile } from '../../db/entities';
import {
  countSubmissions,
  findAccountSubmissionRow,
  selectSubmissionSlice,
  type ListedSubmissionRow,
  type SubmissionFilter,
  type SubmissionRow,
  type SubmissionSlice,
} from '../../db/sql/submissions';

export type {
  ListedSubmissionRow,
  SubmissionFilter,
  SubmissionPosition,
  SubmissionRow,
  SubmissionSlice,
} from '../../db/sql/submissions';

/**
 * One page of an account's submissions, newest first, at most `slice.maxBytes` of them (one
 * at least), and the total matching. `more`: rows follow the last one; `cut`: the byte budget
 * ended the page before `perPage`.
 */
export async function listSubmissions(
  em: EntityManager,
  filter: SubmissionFilter,
  slice: SubmissionSlice,
): Promise<{ rows: ListedSubmissionRow[]; total: number; more: boolean; cut: boolean }> {
  const [page, total] = await Promise.all([
    selectSubmissionSlice(em, filter, slice),
    countSubmissions(em, filter),
  ]);
  return { ...page, total };
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

/** The uploaded file `fileId` of the submission `submissionId`, or null. */
export function findSubmissionFile(
  em: EntityManager,
  submissionId: string,
  fileId: string,
): Promise<SubmissionFile | null> {
  return em.findOne(SubmissionFile, { id: fileId, submissionId });
}
