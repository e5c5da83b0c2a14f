import type { EntityManager } from '@mikro-orm/postgresql';
import { selectVersionsPage, type SubmissionVersionRow } from '../../db/sql/submission-versions';

export type { SubmissionVersionRow } from '../../db/sql/submission-versions';

/**
 * One page of a submission's versions, oldest first (docs/manage-links.md). A submission its
 * submitter never edited has one version, itself, listed as version 1.
 */
export async function listSubmissionVersions(
  em: EntityManager,
  submission: { id: string; payload_json: Record<string, unknown>; created_at: Date | string },
  page: { page: number; perPage: number; afterVersion: number | null },
): Promise<{ rows: SubmissionVersionRow[]; total: number; more: boolean }> {
  const stored = await selectVersionsPage(em, submission.id, {
    limit: page.perPage,
    offset: (page.page - 1) * page.perPage,
    after: page.afterVersion,
  });
  if (stored.total > 0) return stored;
  const only: SubmissionVersionRow = {
    version: 1,
    payload_json: submission.payload_json,
    status: 'current',
    spam_reason: null,
    created_at: new Date(submission.created_at),
  };
  const onFirstPage = page.afterVersion === null && page.page === 1;
  return { rows: onFirstPage ? [only] : [], total: 1, more: false };
}
