import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { Membership, User } from '../../db/entities';
import {
  deleteAccountTokens,
  newestTokenPassword,
  purgeExpiredSignUps,
} from '../../db/sql/account-tokens';
import { findUserIdByEmail } from '../../db/sql/users';
import type { Mailer } from '../mail/mailer';
import { sendAccountMail } from './account-mail';
import { issueAccountToken, redeemAccountToken, TOKEN_TTL_MS } from './account-tokens';
import { createAccount, EmailTakenError } from './accounts';
import { hashPassword } from './passwords';

/** What the account e-mails need: the mailer, a log for failures, and the dashboard's URL. */
export type AccountMailing = { mailer: Mailer; logger: Logger; baseUrl: () => string };

/**
 * Dashboard sign-up. The caller answers the same whatever happens here: a new address gets
 * an unconfirmed account and a confirmation link; an address with an unconfirmed account gets
 * another link; a confirmed one gets a note pointing to the password reset. Every link carries
 * the password given with the sign-up that asked for it (docs/security.md, "Accounts and sign-in"):
 * whoever confirms the address owns the password of the link they followed, and a later
 * sign-up neither discards an earlier one's password nor lets its link confirm someone
 * else's. Sign-ups whose links all expired are deleted first, so their address starts afresh.
 */
export async function signUp(
  em: EntityManager,
  mailing: AccountMailing,
  input: { email: string; password: string; name?: string },
): Promise<NewAccount | null> {
  const email = input.email.trim().toLowerCase();
  await purgeExpiredSignUps(em, TOKEN_TTL_MS.confirm_email);
  // Hashed in every case, so the time taken does not tell the three cases apart.
  const passwordHash = await hashPassword(input.password);
  if ((await findUserIdByEmail(em, email)) === null) {
    try {
      const { user, account } = await createAccount(em, {
        email,
        passwordHash,
        name: input.name,
        confirmed: false,
      });
      await sendConfirmation(em, mailing, user, passwordHash);
      return { userId: user.id, accountId: account.id };
    } catch (error) {
      // Another sign-up with this address won the race: answer as for a known address.
      if (!(error instanceof EmailTakenError)) throw error;
    }
  }
  await notifyKnownAddress(em, mailing, email, passwordHash);
  return null;
}

/** The account a sign-up created, and its owner (for the audit log; the page shows neither). */
export type NewAccount = { userId: string; accountId: string };

/** A known address: a link bound to this password when unconfirmed, else a note with the reset link. */
async function notifyKnownAddress(
  em: EntityManager,
  mailing: AccountMailing,
  email: string,
  passwordHash: string,
) {
  const userId = await findUserIdByEmail(em, email);
  const user = userId ? await em.findOne(User, { id: userId }) : null;
  if (!user) return;
  if (!user.emailConfirmedAt) return sendConfirmation(em, mailing, user, passwordHash);
  sendAccountMail(mailing.mailer, mailing.logger, {
    kind: 'already_registered',
    to: user.email,
    link: `${mailing.baseUrl()}/forgot`,
  });
}

async function sendConfirmation(
  em: EntityManager,
  mailing: AccountMailing,
  user: User,
  passwordHash: string,
) {
  const token = await issueAccountToken(em, user.id, 'confirm_email', passwordHash);
  sendAccountMail(mailing.mailer, mailing.logger, {
    kind: 'confirm',
    to: user.email,
    link: `${mailing.baseUrl()}/confirm?token=${encodeURIComponent(token)}`,
  });
}

/**
 * Sends a new confirmation link when the address has an unconfirmed sign-up whose links have
 * not all expired, bound to the password of the newest one (the password given last); else
 * nothing: an expired sign-up is deleted and the address can sign up again.
 */
export async function resendConfirmation(
  em: EntityManager,
  mailing: AccountMailing,
  email: string,
): Promise<void> {
  const userId = await findUserIdByEmail(em, email.trim());
  const user = userId ? await em.findOne(User, { id: userId }) : null;
  if (!user || user.emailConfirmedAt) return;
  const passwordHash = await newestTokenPassword(em, user.id, 'confirm_email');
  if (passwordHash) await sendConfirmation(em, mailing, user, passwordHash);
}

/**
 * Follows a confirmation link: the user and the account it owns when it confirmed an address
 * (once), else null. The account's
 * password becomes the one the link was sent with, and the user's other confirmation links
 * stop working. The user's row is locked, so of two links followed at once only the first
 * sets the password.
 */
export async function confirmEmail(
  em: EntityManager,
  token: string,
): Promise<{ userId: string; accountId: string | null } | null> {
  return em.transactional(async (tx) => {
    const taken = await redeemAccountToken(tx, token, 'confirm_email');
    if (!taken) return null;
    const user = await tx.findOne(
      User,
      { id: taken.userId },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!user) return null;
    if (!user.emailConfirmedAt) {
      if (taken.passwordHash) user.passwordHash = taken.passwordHash;
      user.emailConfirmedAt = new Date();
    }
    await tx.flush();
    await deleteAccountTokens(tx, user.id, 'confirm_email');
    const owned = await tx.findOne(Membership, { userId: user.id, role: 'owner' });
    return { userId: user.id, accountId: owned?.accountId ?? null };
  });
}
