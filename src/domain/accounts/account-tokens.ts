import type { EntityManager } from '@mikro-orm/postgresql';
import {
  replaceAccountToken,
  takeAccountToken,
  type AccountTokenPurpose,
} from '../../db/sql/account-tokens';
import { randomToken, sha256Hex } from './secrets';

/** How long a link sent by e-mail works. */
export const TOKEN_TTL_MS: Record<AccountTokenPurpose, number> = {
  confirm_email: 48 * 3600_000,
  reset_password: 3600_000,
};

/**
 * A fresh random token for an e-mailed link: only its hash is stored, it expires, and it
 * replaces the user's earlier token of the same purpose.
 */
export async function issueAccountToken(
  em: EntityManager,
  userId: string,
  purpose: AccountTokenPurpose,
): Promise<string> {
  const token = randomToken(32);
  await replaceAccountToken(em, {
    tokenHash: sha256Hex(token),
    userId,
    purpose,
    expiresAt: new Date(Date.now() + TOKEN_TTL_MS[purpose]),
  });
  return token;
}

/** The token's user, once: the token is deleted whether or not it was still valid. */
export async function redeemAccountToken(
  em: EntityManager,
  token: string,
  purpose: AccountTokenPurpose,
): Promise<string | null> {
  if (!token || token.length > 200) return null;
  return takeAccountToken(em, sha256Hex(token), purpose);
}
