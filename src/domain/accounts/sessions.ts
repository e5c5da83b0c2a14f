import type { EntityManager } from '@mikro-orm/postgresql';
import { Session, User } from '../../db/entities';
import { findUserIdByEmail } from '../../db/sql/users';
import {
  clearLoginFailures,
  loginRetryAfter,
  recordLoginFailure,
  throttleKeys,
} from './login-throttle';
import { hashPassword, needsRehash, UNKNOWN_USER_HASH, verifyPassword } from './passwords';
import { randomToken, sha256Hex } from './secrets';

export const SESSION_TTL_MS = 14 * 24 * 3600 * 1000;

export type SignInResult =
  | { kind: 'signed_in'; token: string; session: Session }
  | { kind: 'refused' }
  /** Right password, but the e-mail was never confirmed. */
  | { kind: 'unconfirmed' }
  | { kind: 'throttled'; retryAfterSeconds: number };

/**
 * Checks e-mail and password, unless that address or that e-mail failed too often lately
 * (login-throttle.ts); on success opens a session, upgrades a hash made with older scrypt
 * parameters, and purges expired sessions.
 */
export async function signIn(
  em: EntityManager,
  attempt: { email: string; password: string; clientAddress: string | null },
): Promise<SignInResult> {
  // PostgreSQL text cannot hold NUL, so no stored e-mail contains one.
  if (attempt.email.includes('\0')) return { kind: 'refused' };
  const email = attempt.email.trim();
  const keys = throttleKeys(email, attempt.clientAddress);
  const retryAfterSeconds = await loginRetryAfter(em, keys.all);
  if (retryAfterSeconds > 0) return { kind: 'throttled', retryAfterSeconds };
  const userId = await findUserIdByEmail(em, email);
  const user = userId ? await em.findOne(User, { id: userId }) : null;
  // Hash anyway when the user is unknown so timing does not tell which e-mails exist.
  const valid = await verifyPassword(attempt.password, user?.passwordHash ?? UNKNOWN_USER_HASH);
  if (!user || !valid) {
    await recordLoginFailure(em, keys.all);
    return { kind: 'refused' };
  }
  await clearLoginFailures(em, keys.emailKey);
  // Told only to whoever knows the password, so it reveals nothing about the address.
  if (!user.emailConfirmedAt) return { kind: 'unconfirmed' };
  if (needsRehash(user.passwordHash)) user.passwordHash = await hashPassword(attempt.password);
  const token = randomToken(32);
  const session = em.create(Session, {
    userId: user.id,
    accountId: user.accountId,
    tokenHash: sha256Hex(token),
    csrfToken: randomToken(24),
    expiresAt: new Date(Date.now() + SESSION_TTL_MS),
  });
  await em.flush();
  await em.nativeDelete(Session, { expiresAt: { $lte: new Date() } });
  return { kind: 'signed_in', token, session };
}

export async function findSession(em: EntityManager, token: string): Promise<Session | null> {
  return em.findOne(Session, { tokenHash: sha256Hex(token), expiresAt: { $gt: new Date() } });
}

export async function signOut(em: EntityManager, token: string): Promise<void> {
  await em.nativeDelete(Session, { tokenHash: sha256Hex(token) });
}
