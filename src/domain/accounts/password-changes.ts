import type { EntityManager } from '@mikro-orm/postgresql';
import { Session, User } from '../../db/entities';
import { deleteAccountTokens } from '../../db/sql/account-tokens';
import { findUserIdByEmail } from '../../db/sql/users';
import { sendAccountMail } from './account-mail';
import { issueAccountToken, redeemAccountToken } from './account-tokens';
import {
  beginPasswordCheck,
  forgetAccountFailures,
  passwordCheckFailed,
  passwordCheckSucceeded,
  throttleKeys,
} from './login-throttle';
import { hashPassword, verifyPassword } from './passwords';
import type { AccountMailing } from './registration';
import { openSession, type OpenedSession } from './sessions';

/** The dashboard's rule for a new password (sign-up, reset, change). */
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 1024;

/** Why a new password is refused, or null when it is acceptable. */
export function newPasswordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH)
    return `The password needs at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH)
    return `The password may have at most ${MAX_PASSWORD_LENGTH} characters.`;
  return null;
}

/**
 * "Forgot password": mails a reset link when the address has an account, and does nothing
 * otherwise; the caller answers the same either way.
 */
export async function requestPasswordReset(
  em: EntityManager,
  mailing: AccountMailing,
  email: string,
): Promise<void> {
  if (email.includes('\0')) return;
  const userId = await findUserIdByEmail(em, email.trim());
  if (!userId) return;
  const user = await em.findOneOrFail(User, { id: userId });
  const token = await issueAccountToken(em, userId, 'reset_password');
  sendAccountMail(mailing.mailer, mailing.logger, {
    kind: 'reset',
    to: user.email,
    link: `${mailing.baseUrl()}/reset?token=${encodeURIComponent(token)}`,
  });
}

/**
 * Sets a new password through a reset link (once). The link came by e-mail, so it also
 * confirms the address, and the sign-up links still out stop working (none may set another
 * password later); the account's failed sign-ins are forgotten (the owner may be the one
 * strangers locked out). Every session of the user ends; a new one is opened for whoever reset,
 * who is shown the account's API keys next (keys outlive a password, so a key someone made
 * while they had the password keeps working until it is revoked). Null for a bad link.
 */
export async function resetPassword(
  em: EntityManager,
  token: string,
  password: string,
): Promise<OpenedSession | null> {
  const taken = await redeemAccountToken(em, token, 'reset_password');
  const user = taken ? await em.findOne(User, { id: taken.userId }) : null;
  if (!user) return null;
  user.passwordHash = await hashPassword(password);
  user.emailConfirmedAt ??= new Date();
  await em.flush();
  await deleteAccountTokens(em, user.id, 'confirm_email');
  await em.nativeDelete(Session, { userId: user.id });
  await forgetAccountFailures(em, user.email);
  return openSession(em, user);
}

export type PasswordChangeResult =
  | { kind: 'changed' }
  | { kind: 'wrong_password' }
  | { kind: 'throttled'; retryAfterSeconds: number };

/**
 * Changes the password of a signed-in user who knows the current one, and ends the user's
 * other sessions (the one making the change stays). The current password is a guess like a
 * sign-in's, so it is counted first against the same limits (a stolen session must not be a
 * way to brute-force it).
 */
export async function changePassword(
  em: EntityManager,
  input: {
    userId: string;
    sessionId: string;
    current: string;
    next: string;
    clientAddress: string | null;
  },
): Promise<PasswordChangeResult> {
  const user = await em.findOneOrFail(User, { id: input.userId });
  const keys = throttleKeys(user.email, input.clientAddress);
  const retryAfterSeconds = await beginPasswordCheck(em, keys);
  if (retryAfterSeconds > 0) return { kind: 'throttled', retryAfterSeconds };
  if (!(await verifyPassword(input.current, user.passwordHash))) {
    await passwordCheckFailed(em);
    return { kind: 'wrong_password' };
  }
  await passwordCheckSucceeded(em, keys);
  user.passwordHash = await hashPassword(input.next);
  await em.flush();
  await em.nativeDelete(Session, { userId: user.id, id: { $ne: input.sessionId } });
  return { kind: 'changed' };
}
