import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from './execute';

export type AccountCounts = {
  forms: number;
  submissions: number;
  files: number;
  plugins: number;
  keys: number;
  members: number;
  invitations: number;
};

/** What deleting the account takes with it (the confirmation page names it). */
export async function countAccountContents(
  em: EntityManager,
  accountId: string,
): Promise<AccountCounts> {
  const [row] = await selectRows<AccountCounts>(
    em,
    `select
       (select count(*)::int from forms where account_id = ?1) as forms,
       (select count(*)::int from submissions where account_id = ?1) as submissions,
       (select count(*)::int from submission_files f join submissions s on s.id = f.submission_id
         where s.account_id = ?1) as files,
       (select count(*)::int from plugins p join forms f on f.id = p.form_id
         where f.account_id = ?1 and p.deleted_at is null) as plugins,
       (select count(*)::int from api_keys where account_id = ?1 and revoked_at is null) as keys,
       (select count(*)::int from memberships where account_id = ?1) as members,
       (select count(*)::int from invitations where account_id = ?1 and accepted_at is null
         and revoked_at is null and declined_at is null and expires_at > now()) as invitations`.replaceAll(
      '?1',
      '?',
    ),
    Array(7).fill(accountId),
  );
  return row!;
}

/** The workflow ids of the account's recovery runs still running. */
export async function runningRecoveryWorkflows(
  em: EntityManager,
  accountId: string,
): Promise<string[]> {
  const rows = await selectRows<{ workflowId: string }>(
    em,
    `select workflow_id as "workflowId" from plugin_recoveries
      where account_id = ? and status = 'running' and workflow_id is not null`,
    [accountId],
  );
  return rows.map((row) => row.workflowId);
}

/**
 * Deletes the account (its rows go by cascade; file rows queue their objects for deletion),
 * then its former members who belong to no account any more; returns their ids.
 */
export async function deleteAccountRows(em: EntityManager, accountId: string): Promise<string[]> {
  const members = await selectRows<{ userId: string }>(
    em,
    'select user_id::text as "userId" from memberships where account_id = ?',
    [accountId],
  );
  await runStatement(em, 'delete from sessions where account_id = ?', [accountId]);
  await runStatement(em, 'delete from accounts where id = ?', [accountId]);
  const ids = members.map((member) => member.userId);
  if (ids.length === 0) return [];
  const orphans = await selectRows<{ id: string }>(
    em,
    `delete from users u where u.id = any(?::bigint[])
        and not exists (select 1 from memberships m where m.user_id = u.id)
      returning u.id::text as id`,
    [`{${ids.join(',')}}`],
  );
  return orphans.map((row) => row.id);
}
