import type { EntityManager } from '@mikro-orm/postgresql';

export type FormCounts = { submissions: number; spam: number; lastSubmissionAt: Date | null };

const EMPTY: FormCounts = { submissions: 0, spam: 0, lastSubmissionAt: null };

/** Submission and spam counts and the latest non-spam submission time, for many forms at once. */
export async function countSubmissionsByForm(
  em: EntityManager,
  formIds: string[],
): Promise<(formId: string) => FormCounts> {
  const counts = new Map<string, FormCounts>();
  if (formIds.length > 0) {
    const rows = await em
      .getConnection()
      .execute<{ form_id: string; submissions: string; spam: string; last_at: Date | null }[]>(
        `select form_id,
              count(*) filter (where not is_spam) as submissions,
              count(*) filter (where is_spam) as spam,
              max(created_at) filter (where not is_spam) as last_at
         from submissions where form_id = any(?::bigint[]) group by form_id`,
        // A PostgreSQL array literal: knex would expand a JS array into a value list.
        [`{${formIds.join(',')}}`],
      );
    for (const row of rows) {
      counts.set(String(row.form_id), {
        submissions: Number(row.submissions),
        spam: Number(row.spam),
        lastSubmissionAt: row.last_at ? new Date(row.last_at) : null,
      });
    }
  }
  return (formId) => counts.get(formId) ?? EMPTY;
}
