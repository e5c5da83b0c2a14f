import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { User } from '../../db/entities';
import { findUserIdByEmail } from '../../db/sql/users';
import type { Mailer } from '../mail/mailer';
import { sendAccountMail } from './account-mail';
import { issueAccountToken, redeemAccountToken } from './account-tokens';
import { createAccount, EmailTakenError } from './accounts';
import { hashPassword } from './passwords';

/** What the account e-mails need: the mailer, a log for failures, and the dashboard's URL. */
export type AccountMailing = { mailer: Mailer; logger: Logger; baseUrl: () => string };

/**
 * Dashboard sign-up. The caller answers the same whatever happens here: a new address gets
 * an unconfirmed account and a confirmation link; an address with an unconfirmed account gets
 * a fresh link; a confirmed one gets a note pointing to the password reset. The password is
 * hashed in every case so the time taken does not tell them apart.
 */
export async function signUp(
  em: EntityManager,
  mailing: AccountMailing,
  input: { email: string; password: string; name?: string },
): Promise<void> {
  const email = input.email.trim().toLowerCase();
  const existing = await findUserIdByEmail(em, email);
  if (existing === null) {
    try {
      const { user } = await createAccount(em, { ...input, email, confirmed: false });
      await sendConfirmation(em, mailing, user.id, email);
      return;
    } catch (error) {
      // Another sign-up with this address won the race: answer as for a known address.
      if (!(error instanceof EmailTakenError)) throw error;
    }
  } else {
    await hashPassword(input.password);
  }
  await notifyKnownAddress(em, mailing, email);
}

/** A known address: a new confirmation link when unconfirmed, else a note with the reset link. */
async function notifyKnownAddress(em: EntityManager, mailing: AccountMailing, email: string) {
  const userId = await findUserIdByEmail(em, email);
  const user = userId ? await em.findOne(User, { id: userId }) : null;
  if (!user) return;
  if (!user.emailConfirmedAt) return sendConfirmation(em, mailing, user.id, user.email);
  sendAccountMail(mailing.mailer, mailing.logger, {
    kind: 'already_registered',
    to: user.email,
    link: `${mailing.baseUrl()}/forgot`,
  });
}

async function sendConfirmation(
  em: EntityManager,
  mailing: AccountMailing,
  userId: string,
  email: string,
) {
  const token = await issueAccountToken(em, userId, 'confirm_email');
  sendAccountMail(mailing.mailer, mailing.logger, {
    kind: 'confirm',
    to: email,
    link: `${mailing.baseUrl()}/confirm?token=${encodeURIComponent(token)}`,
  });
}

/** Sends a new confirmation link when the address has an unconfirmed account; else nothing. */
export async function resendConfirmation(
  em: EntityManager,
  mailing: AccountMailing,
  email: string,
): Promise<void> {
  const userId = await findUserIdByEmail(em, email.trim());
  const user = userId ? await em.findOne(User, { id: userId }) : null;
  if (user && !user.emailConfirmedAt) await sendConfirmation(em, mailing, user.id, user.email);
}

/** Follows a confirmation link: true when it confirmed an address (once). */
export async function confirmEmail(em: EntityManager, token: string): Promise<boolean> {
  const userId = await redeemAccountToken(em, token, 'confirm_email');
  const user = userId ? await em.findOne(User, { id: userId }) : null;
  if (!user) return false;
  user.emailConfirmedAt ??= new Date();
  await em.flush();
  return true;
}
