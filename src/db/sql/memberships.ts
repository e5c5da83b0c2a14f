import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from './execute';

export type MemberRow = { userId: string; email: string; role: string; since: Date };
export type UserAccountRow = { accountId: string; name: string; role: string };

/** The account's members, the owner first, then by when they joined. */
export async function listMembers(em: EntityManager, accountId: string): Promise<MemberRow[]> {
  const rows = await selectRows<MemberRow>(
    em,
    `select m.user_id::text as "userId", u.email, m.role, m.created_at as since
       from memberships m join users u on u.id = m.user_id
      where m.account_id = ?
      order by (m.role = 'owner') desc, m.created_at, u.email`,
    [accountId],
  );
  // Raw statements give timestamps as strings.
  return rows.map((row) => ({ ...row, since: new Date(row.since) }));
}

/** One member of the account, or null. */
export async function findMember(
  em: EntityManager,
  accountId: string,
  userId: string,
): Promise<MemberRow | null> {
  const [row] = await selectRows<MemberRow>(
    em,
    `select m.user_id::text as "userId", u.email, m.role, m.created_at as since
       from memberships m join users u on u.id = m.user_id
      where m.account_id = ? and m.user_id = ?`,
    [accountId, userId],
  );
  return row ? { ...row, since: new Date(row.since) } : null;
}

/** The address of a member of the account (for the audit log's summaries), or null. */
export async function findMemberEmail(
  em: EntityManager,
  accountId: string,
  userId: string,
): Promise<string | null> {
  const [row] = await selectRows<{ email: string }>(
    em,
    `select u.email from memberships m join users u on u.id = m.user_id
      where m.account_id = ? and m.user_id = ?`,
    [accountId, userId],
  );
  return row?.email ?? null;
}

/** The accounts a user belongs to, by name (the header's switcher). */
export function listUserAccounts(em: EntityManager, userId: string): Promise<UserAccountRow[]> {
  return selectRows<UserAccountRow>(
    em,
    `select a.id::text as "accountId", a.name, m.role
       from memberships m join accounts a on a.id = m.account_id
      where m.user_id = ?
      order by a.name, a.id`,
    [userId],
  );
}

/** Ends every session of the user acting in the account (removal, a lower role). */
export function deleteMemberSessions(
  em: EntityManager,
  accountId: string,
  userId: string,
): Promise<number> {
  return runStatement(em, 'delete from sessions where account_id = ? and user_id = ?', [
    accountId,
    userId,
  ]);
}
