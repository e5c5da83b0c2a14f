import type { EntityManager } from '@mikro-orm/postgresql';
import {
  addAccountToken,
  replaceAccountToken,
  takeAccountToken,
  type AccountTokenPurpose,
  type TakenToken,
} from '../../db/sql/account-tokens';
import { randomToken, sha256Hex } from './secrets';

/** How long a link sent by e-mail works. */
export const TOKEN_TTL_MS: Record<AccountTokenPurpose, number> = {
  confirm_email: 48 * 3600_000,
  reset_password: 3600_000,
};

/**
 * A fresh random token for an e-mailed link: only its hash is stored and it expires. A reset
 * link replaces the user's earlier one; a confirmation link is added beside the others, each
 * bound to the password of the sign-up that asked for it, so that whoever follows one gets
 * that link's password and no other.
 */
export async function issueAccountToken(
  em: EntityManager,
  userId: string,
  purpose: AccountTokenPurpose,
  passwordHash: string | null = null,
): Promise<string> {
  const token = randomToken(32);
  const row = {
    tokenHash: sha256Hex(token),
    userId,
    purpose,
    expiresAt: new Date(Date.now() + TOKEN_TTL_MS[purpose]),
    passwordHash,
  };
  if (purpose === 'confirm_email') await addAccountToken(em, row);
  else await replaceAccountToken(em, row);
  return token;
}

/** The token's user (and bound password), once: the token is deleted whether or not it was valid. */
export async function redeemAccountToken(
  em: EntityManager,
  token: string,
  purpose: AccountTokenPurpose,
): Promise<TakenToken | null> {
  if (!token || token.length > 200) return null;
  return takeAccountToken(em, sha256Hex(token), purpose);
}
