import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from './execute';

export type AccountTokenPurpose = 'confirm_email' | 'reset_password';

export type AccountTokenRow = {
  tokenHash: string;
  userId: string;
  purpose: AccountTokenPurpose;
  expiresAt: Date;
  /** A confirmation link's password: the one given with the sign-up that asked for it. */
  passwordHash?: string | null;
};

/** Stores a token's hash beside the user's other tokens of that purpose; drops expired ones. */
export async function addAccountToken(em: EntityManager, row: AccountTokenRow): Promise<void> {
  await runStatement(
    em,
    `insert into account_tokens (token_hash, user_id, purpose, expires_at, password_hash)
     values (?, ?, ?, ?, ?)`,
    [row.tokenHash, row.userId, row.purpose, row.expiresAt, row.passwordHash ?? null],
  );
  await runStatement(em, 'delete from account_tokens where expires_at <= now()');
}

/** Stores a token's hash; earlier tokens of the same user and purpose stop working. */
export async function replaceAccountToken(em: EntityManager, row: AccountTokenRow): Promise<void> {
  await deleteAccountTokens(em, row.userId, row.purpose);
  await addAccountToken(em, row);
}

/** Every token of the user with this purpose stops working. */
export async function deleteAccountTokens(
  em: EntityManager,
  userId: string,
  purpose: AccountTokenPurpose,
): Promise<void> {
  await runStatement(em, 'delete from account_tokens where user_id = ? and purpose = ?', [
    userId,
    purpose,
  ]);
}

/** The password hash of the user's newest live token of this purpose, or null. */
export async function newestTokenPassword(
  em: EntityManager,
  userId: string,
  purpose: AccountTokenPurpose,
): Promise<string | null> {
  const [row] = await selectRows<{ password_hash: string | null }>(
    em,
    `select password_hash from account_tokens
     where user_id = ? and purpose = ? and expires_at > now()
     order by created_at desc limit 1`,
    [userId, purpose],
  );
  return row?.password_hash ?? null;
}

export type TakenToken = { userId: string; passwordHash: string | null };

/**
 * Deletes the token and returns its user (and bound password) when it existed, had this
 * purpose and had not expired: one statement, so two requests racing with the same token
 * cannot both win.
 */
export async function takeAccountToken(
  em: EntityManager,
  tokenHash: string,
  purpose: AccountTokenPurpose,
): Promise<TakenToken | null> {
  const [row] = await selectRows<{
    user_id: string;
    password_hash: string | null;
    live: boolean;
  }>(
    em,
    `delete from account_tokens where token_hash = ? and purpose = ?
     returning user_id, password_hash, expires_at > now() as live`,
    [tokenHash, purpose],
  );
  return row?.live ? { userId: String(row.user_id), passwordHash: row.password_hash } : null;
}

/**
 * Deletes the sign-ups never confirmed whose every confirmation link has expired: the user,
 * and the account they own unless a confirmed user belongs to it (with both go, by cascade,
 * their tokens, memberships and anything else of theirs). Returns how many users went.
 */
export function purgeExpiredSignUps(em: EntityManager, olderThanMs: number): Promise<number> {
  return runStatement(
    em,
    `with expired as (
       select u.id from users u
        where u.email_confirmed_at is null
          and u.created_at < now() - make_interval(secs => ?)
          and not exists (select 1 from account_tokens t
                           where t.user_id = u.id and t.purpose = 'confirm_email'
                             and t.expires_at > now())
     ), accounts_gone as (
       delete from accounts a
        using memberships m
        where m.account_id = a.id and m.role = 'owner' and m.user_id in (select id from expired)
          and not exists (select 1 from memberships o join users c on c.id = o.user_id
                           where o.account_id = a.id and c.email_confirmed_at is not null)
     )
     delete from users where id in (select id from expired)`,
    [olderThanMs / 1000],
  );
}
