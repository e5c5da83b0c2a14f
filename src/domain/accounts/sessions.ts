import type { EntityManager } from '@mikro-orm/postgresql';
import { Account, Membership, Session, User } from '../../db/entities';
import { findUserIdByEmail } from '../../db/sql/users';
import {
  beginPasswordCheck,
  passwordCheckFailed,
  passwordCheckSucceeded,
  throttleKeys,
} from './login-throttle';
import { isMemberRole, type MemberRole } from './member-roles';
import { hashPassword, needsRehash, UNKNOWN_USER_HASH, verifyPassword } from './passwords';
import { randomToken, sha256Hex } from './secrets';

/** The absolute lifetime of a session, however busy. */
export const SESSION_TTL_MS = 14 * 24 * 3600 * 1000;
/** A session's `last_seen_at` is written at most this often, not on every request. */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;

/** How sessions end besides their absolute lifetime (SESSION_IDLE_TIMEOUT). */
export type SessionPolicy = { idleTimeoutMs: number };

/** A new session and the token its cookie carries (only the token's hash is stored). */
export type OpenedSession = { token: string; session: Session; role: MemberRole };

/** A live session with the role its user holds now in the account it acts in. */
export type ActiveSession = Pick<Session, 'id' | 'userId' | 'accountId' | 'csrfToken'> & {
  role: MemberRole;
};

export type SignInResult =
  | ({ kind: 'signed_in' } & OpenedSession)
  | { kind: 'refused' }
  /** Right password, but the e-mail was never confirmed. */
  | { kind: 'unconfirmed' }
  | { kind: 'throttled'; retryAfterSeconds: number }
  /** Right password, but the user belongs to no account any more (every one was deleted). */
  | { kind: 'no_account' };

/**
 * Checks e-mail and password, counting the attempt first (login-throttle.ts) and refusing
 * without a check when that client or that e-mail guessed too often lately; on success opens
 * a session, upgrades a hash made with older scrypt parameters, and purges expired sessions.
 */
export async function signIn(
  em: EntityManager,
  attempt: { email: string; password: string; clientAddress: string | null },
): Promise<SignInResult> {
  // PostgreSQL text cannot hold NUL, so no stored e-mail contains one.
  if (attempt.email.includes('\0')) return { kind: 'refused' };
  const email = attempt.email.trim();
  const keys = throttleKeys(email, attempt.clientAddress);
  const retryAfterSeconds = await beginPasswordCheck(em, keys);
  if (retryAfterSeconds > 0) return { kind: 'throttled', retryAfterSeconds };
  const userId = await findUserIdByEmail(em, email);
  const user = userId ? await em.findOne(User, { id: userId }) : null;
  // Hash anyway when the user is unknown so timing does not tell which e-mails exist.
  const valid = await verifyPassword(attempt.password, user?.passwordHash ?? UNKNOWN_USER_HASH);
  if (!user || !valid) {
    await passwordCheckFailed(em);
    return { kind: 'refused' };
  }
  await passwordCheckSucceeded(em, keys);
  // Told only to whoever knows the password, so it reveals nothing about the address.
  if (!user.emailConfirmedAt) return { kind: 'unconfirmed' };
  if (needsRehash(user.passwordHash)) user.passwordHash = await hashPassword(attempt.password);
  const opened = await openSession(em, user);
  return opened ? { kind: 'signed_in', ...opened } : { kind: 'no_account' };
}

/**
 * Opens a session for the user in the given account, or in the one they used last (and
 * purges expired sessions meanwhile); null when the user is no member of it, or of any.
 */
export async function openSession(
  em: EntityManager,
  user: Pick<User, 'id'>,
  accountId?: string,
): Promise<OpenedSession | null> {
  const membership = await em.findOne(
    Membership,
    { userId: user.id, ...(accountId === undefined ? {} : { accountId }) },
    { orderBy: { lastUsedAt: 'desc nulls last', createdAt: 'asc' } },
  );
  if (!membership) return null;
  membership.lastUsedAt = new Date();
  const token = randomToken(32);
  const session = em.create(Session, {
    userId: user.id,
    accountId: membership.accountId,
    tokenHash: sha256Hex(token),
    csrfToken: randomToken(24),
    expiresAt: new Date(Date.now() + SESSION_TTL_MS),
  });
  await em.flush();
  await em.nativeDelete(Session, { expiresAt: { $lte: new Date() } });
  const role = isMemberRole(membership.role) ? membership.role : 'viewer';
  return { token, session, role };
}

/**
 * The session of a cookie's token while it is within its lifetime, was used within the idle
 * timeout and its user is still a member of its account, with the role they hold there now
 * (a removed member's or a lowered role's next request sees it); it then counts as used now
 * (written at most once a minute).
 */
export async function findSession(
  em: EntityManager,
  token: string,
  policy: SessionPolicy,
): Promise<ActiveSession | null> {
  const now = Date.now();
  const session = await em.findOne(Session, {
    tokenHash: sha256Hex(token),
    expiresAt: { $gt: new Date(now) },
    lastSeenAt: { $gt: new Date(now - policy.idleTimeoutMs) },
  });
  if (session && now - session.lastSeenAt.getTime() >= SESSION_TOUCH_INTERVAL_MS) {
    session.lastSeenAt = new Date(now);
    await em.nativeUpdate(Session, { id: session.id }, { lastSeenAt: session.lastSeenAt });
  }
  if (!session) return null;
  const membership = await em.findOne(
    Membership,
    { accountId: session.accountId, userId: session.userId },
    { fields: ['role'] },
  );
  if (!membership || !isMemberRole(membership.role)) return null;
  const { id, userId, accountId, csrfToken } = session;
  return { id, userId, accountId, csrfToken, role: membership.role };
}

export async function signOut(em: EntityManager, token: string): Promise<void> {
  await em.nativeDelete(Session, { tokenHash: sha256Hex(token) });
}

/** The e-mail of a session's user and the name of its account (the dashboard's header). */
export async function findSessionHolder(
  em: EntityManager,
  session: Pick<Session, 'userId' | 'accountId'>,
): Promise<{ email: string; accountName: string }> {
  const [user, account] = await Promise.all([
    em.findOneOrFail(User, { id: session.userId }),
    em.findOneOrFail(Account, { id: session.accountId }),
  ]);
  return { email: user.email, accountName: account.name };
}
