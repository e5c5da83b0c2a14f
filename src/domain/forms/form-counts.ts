import type { EntityManager } from '@mikro-orm/postgresql';
import { submissionCountsPerForm } from '../../db/sql/submission-counts';

export type FormCounts = { submissions: number; spam: number; lastSubmissionAt: Date | null };

const EMPTY: FormCounts = { submissions: 0, spam: 0, lastSubmissionAt: null };

/** Submission and spam counts and the latest non-spam submission time, for many forms at once. */
export async function countSubmissionsByForm(
  em: EntityManager,
  formIds: string[],
): Promise<(formId: string) => FormCounts> {
  const counts = new Map<string, FormCounts>();
  if (formIds.length > 0) {
    for (const row of await submissionCountsPerForm(em, formIds)) {
      counts.set(row.formId, {
        submissions: row.submissions,
        spam: row.spam,
        lastSubmissionAt: row.lastAt,
      });
    }
  }
  return (formId) => counts.get(formId) ?? EMPTY;
}
