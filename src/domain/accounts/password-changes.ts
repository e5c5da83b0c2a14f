import type { EntityManager } from '@mikro-orm/postgresql';
import { Session, User } from '../../db/entities';
import { findUserIdByEmail } from '../../db/sql/users';
import { sendAccountMail } from './account-mail';
import { issueAccountToken, redeemAccountToken } from './account-tokens';
import { hashPassword, verifyPassword } from './passwords';
import type { AccountMailing } from './registration';

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
 * Sets a new password through a reset link (once) and ends every session of the user. The
 * link came by e-mail, so it also confirms the address.
 */
export async function resetPassword(
  em: EntityManager,
  token: string,
  password: string,
): Promise<boolean> {
  const userId = await redeemAccountToken(em, token, 'reset_password');
  const user = userId ? await em.findOne(User, { id: userId }) : null;
  if (!user) return false;
  user.passwordHash = await hashPassword(password);
  user.emailConfirmedAt ??= new Date();
  await em.flush();
  await em.nativeDelete(Session, { userId: user.id });
  return true;
}

/**
 * Changes the password of a signed-in user who knows the current one, and ends the user's
 * other sessions (the one making the change stays).
 */
export async function changePassword(
  em: EntityManager,
  input: { userId: string; sessionId: string; current: string; next: string },
): Promise<'changed' | 'wrong_password'> {
  const user = await em.findOneOrFail(User, { id: input.userId });
  if (!(await verifyPassword(input.current, user.passwordHash))) return 'wrong_password';
  user.passwordHash = await hashPassword(input.next);
  await em.flush();
  await em.nativeDelete(Session, { userId: user.id, id: { $ne: input.sessionId } });
  return 'changed';
}
