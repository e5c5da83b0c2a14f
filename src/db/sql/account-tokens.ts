import type { EntityManager } from '@mikro-orm/postgresql';
import { runStatement, selectRows } from './execute';

export type AccountTokenPurpose = 'confirm_email' | 'reset_password';

/** Stores a token's hash; earlier tokens of the same user and purpose stop working. */
export async function replaceAccountToken(
  em: EntityManager,
  row: { tokenHash: string; userId: string; purpose: AccountTokenPurpose; expiresAt: Date },
): Promise<void> {
  await runStatement(em, 'delete from account_tokens where user_id = ? and purpose = ?', [
    row.userId,
    row.purpose,
  ]);
  await runStatement(
    em,
    'insert into account_tokens (token_hash, user_id, purpose, expires_at) values (?, ?, ?, ?)',
    [row.tokenHash, row.userId, row.purpose, row.expiresAt],
  );
  await runStatement(em, 'delete from account_tokens where expires_at <= now()');
}

/**
 * Deletes the token and returns its user when it existed, had this purpose and had not
 * expired: one statement, so two requests racing with the same token cannot both win.
 */
export async function takeAccountToken(
  em: EntityManager,
  tokenHash: string,
  purpose: AccountTokenPurpose,
): Promise<string | null> {
  const [row] = await selectRows<{ user_id: string; live: boolean }>(
    em,
    `delete from account_tokens where token_hash = ? and purpose = ?
     returning user_id, expires_at > now() as live`,
    [tokenHash, purpose],
  );
  return row?.live ? String(row.user_id) : null;
}
