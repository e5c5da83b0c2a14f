import type { EntityManager } from '@mikro-orm/postgresql';
import { Session, User } from '../../db/entities';
import { findUserIdByEmail } from '../../db/sql/users';
import { verifyPassword } from './passwords';
import { randomToken, sha256Hex } from './secrets';

export const SESSION_TTL_MS = 14 * 24 * 3600 * 1000;

/** Checks e-mail and password; on success opens a session and returns its cookie token. */
export async function signIn(
  em: EntityManager,
  email: string,
  password: string,
): Promise<{ token: string; session: Session } | null> {
  // PostgreSQL text cannot hold NUL, so no stored e-mail contains one.
  if (email.includes('\0')) return null;
  const userId = await findUserIdByEmail(em, email.trim());
  const user = userId ? await em.findOne(User, { id: userId }) : null;
  // Hash anyway when the user is unknown so timing does not tell which e-mails exist.
  const valid = await verifyPassword(password, user?.passwordHash ?? 'scrypt$AAAA$AAAA');
  if (!user || !valid) return null;
  const token = randomToken(32);
  const session = em.create(Session, {
    userId: user.id,
    accountId: user.accountId,
    tokenHash: sha256Hex(token),
    csrfToken: randomToken(24),
    expiresAt: new Date(Date.now() + SESSION_TTL_MS),
  });
  await em.flush();
  return { token, session };
}

export async function findSession(em: EntityManager, token: string): Promise<Session | null> {
  return em.findOne(Session, { tokenHash: sha256Hex(token), expiresAt: { $gt: new Date() } });
}

export async function signOut(em: EntityManager, token: string): Promise<void> {
  await em.nativeDelete(Session, { tokenHash: sha256Hex(token) });
}
