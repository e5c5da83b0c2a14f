import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from './execute';

/** The user an OpenID Connect provider's subject is linked to, or null. */
export async function findLinkedUserId(
  em: EntityManager,
  issuer: string,
  subject: string,
): Promise<string | null> {
  const [row] = await selectRows<{ user_id: string }>(
    em,
    'select user_id from user_identities where issuer = ? and subject = ?',
    [issuer, subject],
  );
  return row ? String(row.user_id) : null;
}

/**
 * Links the subject to the user unless it is linked already (to them, or to someone a
 * concurrent first sign-in linked it to: findLinkedUserId tells which one won).
 */
export async function linkIdentity(
  em: EntityManager,
  link: { userId: string; issuer: string; subject: string },
): Promise<void> {
  await runStatement(
    em,
    `insert into user_identities (user_id, issuer, subject) values (?, ?, ?)
     on conflict (issuer, subject) do nothing`,
    [link.userId, link.issuer, link.subject],
  );
}

/** The subjects at the issuer the user is linked to (one, unless linked before this rule). */
export async function subjectsOfUserAt(
  em: EntityManager,
  userId: string,
  issuer: string,
): Promise<string[]> {
  const rows = await selectRows<{ subject: string }>(
    em,
    'select subject from user_identities where user_id = ? and issuer = ?',
    [userId, issuer],
  );
  return rows.map((row) => row.subject);
}
