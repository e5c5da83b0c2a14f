import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../../db/entities';
import { deleteAccountTokens } from '../../db/sql/account-tokens';
import { findUserIdByEmail } from '../../db/sql/users';
import { findLinkedUserId, linkIdentity, subjectsOfUserAt } from '../../db/sql/user-identities';
import { createAccount, EmailTakenError } from './accounts';
import { hashPassword } from './passwords';
import { randomToken } from './secrets';
import { openSession, type OpenedSession } from './sessions';

/** Who a provider says signed in: its subject, and an e-mail address it has verified. */
export type VerifiedIdentity = { issuer: string; subject: string; email: string };

export type ExternalSignInResult =
  | ({ kind: 'signed_in'; userId: string; created: boolean } & OpenedSession)
  /** The user belongs to no account any more (every one was deleted). */
  | { kind: 'no_account' }
  /**
   * The address's user is linked to another subject at this issuer (the provider gave the
   * address to someone else since): never re-linked by e-mail, nobody signed in.
   */
  | { kind: 'linked_to_other_subject'; userId: string };

/**
 * Signs in whoever the provider vouches for (docs/single-sign-on.md): the user its subject
 * is linked to; else the user with that verified address, which gets linked unless it is
 * linked to another subject at this issuer already (refused); else a new user with an
 * account of their own. The session opens in the account they used last: invitations to the
 * address are only offered afterwards (invitation-offers.ts), never accepted here.
 */
export async function signInExternal(
  em: EntityManager,
  identity: VerifiedIdentity,
): Promise<ExternalSignInResult> {
  const { user, created } = await findOrCreateUser(em, identity);
  if (!(await linkUnlessLinkedElsewhere(em, user.id, identity)))
    return { kind: 'linked_to_other_subject', userId: user.id };
  // A concurrent first sign-in of the same subject may have linked it first: follow that one.
  const linkedId = (await findLinkedUserId(em, identity.issuer, identity.subject))!;
  const signedIn = linkedId === user.id ? user : await em.findOneOrFail(User, { id: linkedId });
  if (!signedIn.emailConfirmedAt) await confirmThroughProvider(em, signedIn.id);
  const opened = await openSession(em, signedIn);
  return opened
    ? { kind: 'signed_in', userId: signedIn.id, created: created && signedIn === user, ...opened }
    : { kind: 'no_account' };
}

/**
 * Links the subject to the user, unless the user is linked to another subject at the same
 * issuer: a recycled address must not hand its old holder's user to the new one. The user's
 * row is locked so two new subjects cannot both pass the check.
 */
async function linkUnlessLinkedElsewhere(
  em: EntityManager,
  userId: string,
  identity: VerifiedIdentity,
): Promise<boolean> {
  return em.transactional(async (tx) => {
    await tx.findOneOrFail(User, { id: userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const subjects = await subjectsOfUserAt(tx, userId, identity.issuer);
    if (subjects.some((subject) => subject !== identity.subject)) return false;
    await linkIdentity(tx, { userId, ...identity });
    return true;
  });
}

async function findOrCreateUser(
  em: EntityManager,
  identity: VerifiedIdentity,
): Promise<{ user: User; created: boolean }> {
  const linkedId = await findLinkedUserId(em, identity.issuer, identity.subject);
  const existingId = linkedId ?? (await findUserIdByEmail(em, identity.email));
  if (existingId) return { user: await em.findOneOrFail(User, { id: existingId }), created: false };
  try {
    // A password nobody knows: this user signs in through the provider, or after a reset.
    const passwordHash = await hashPassword(randomToken(32));
    const { user } = await createAccount(em, { email: identity.email, passwordHash });
    return { user, created: true };
  } catch (error) {
    if (!(error instanceof EmailTakenError)) throw error;
    // Another request created this address meanwhile: that user it is.
    const id = (await findUserIdByEmail(em, identity.email))!;
    return { user: await em.findOneOrFail(User, { id }), created: false };
  }
}

/**
 * The provider verified the address of an unconfirmed sign-up. Whoever made that sign-up
 * chose its password without proving the address, so it goes (a random one replaces it) and
 * the pending confirmation links stop working: otherwise a stranger who signed up with
 * someone's address would know the password of the account its owner now uses.
 */
async function confirmThroughProvider(em: EntityManager, userId: string): Promise<void> {
  const passwordHash = await hashPassword(randomToken(32));
  await em.transactional(async (tx) => {
    const user = await tx.findOneOrFail(
      User,
      { id: userId },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (user.emailConfirmedAt) return;
    user.passwordHash = passwordHash;
    user.emailConfirmedAt = new Date();
    await tx.flush();
    await deleteAccountTokens(tx, user.id, 'confirm_email');
  });
}
