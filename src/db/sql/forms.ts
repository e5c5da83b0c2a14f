import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from './execute';

/** How many forms the account has, and how many of them are active. */
export async function countAccountForms(
  em: EntityManager,
  accountId: string,
): Promise<{ total: number; active: number }> {
  const [row] = await selectRows<{ total: string; active: string }>(
    em,
    'select count(*) as total, count(*) filter (where is_active) as active from forms where account_id = ?',
    [accountId],
  );
  return { total: Number(row?.total ?? 0), active: Number(row?.active ?? 0) };
}

/** Whether the form of a submission has notification e-mail addresses (false when it is gone). */
export async function formOfSubmissionNotifies(
  em: EntityManager,
  submissionId: string,
): Promise<boolean> {
  const [row] = await selectRows<{ notify: boolean }>(
    em,
    `select cardinality(f.notification_email_addresses) > 0 as notify
       from forms f join submissions s on s.form_id = f.id where s.id = ?`,
    [submissionId],
  );
  return row?.notify ?? false;
}
