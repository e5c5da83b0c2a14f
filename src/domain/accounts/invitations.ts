import type { EntityManager } from '@mikro-orm/postgresql';
import { Membership, User } from '../../db/entities';
import {
  findInvitationByHash,
  insertInvitation,
  listPendingInvitations,
  markAccepted,
  revokeInvitation,
  revokePendingFor,
  type InvitationRow,
} from '../../db/sql/invitations';
import { claimInvitationMail, type InvitationMailClaim } from '../../db/sql/invitation-mails';
import { takeHourlyMail } from '../../db/sql/mail-budget';
import { deleteAccountTokens } from '../../db/sql/account-tokens';
import { findUserIdByEmail } from '../../db/sql/users';
import { sendAccountMail } from './account-mail';
import { createAccount, EmailTakenError } from './accounts';
import type { AddressKeys } from '../mail/address-keys';
import type { UnsubscribeTokens } from '../recipients/unsubscribe-tokens';
import { invitationUnsubscribeUrl } from './invitation-opt-outs';
import { hashPassword } from './passwords';
import type { AccountMailing } from './registration';
import { randomToken, sha256Hex } from './secrets';
import { openSession, type OpenedSession } from './sessions';

export { listPendingInvitations, revokeInvitation, type InvitationRow };

/** How long an invitation's link works. */
export const INVITATION_TTL_MS = 7 * 24 * 3600_000;

/** An invitation refused, with the reason in words (the team page shows it). */
export class InvitationRefused extends Error {
  override name = 'InvitationRefused';
}

export type InviteDeps = {
  mailing: AccountMailing;
  /** INVITATIONS_PER_HOUR (0: no cap). */
  invitationsPerHour: number;
  /** INVITATIONS_PER_ADDRESS_PER_DAY: invitation mails to one address from all accounts (0: no cap). */
  invitationsPerAddressPerDay: number;
  /** ACCOUNT_MAIL_PER_HOUR: every invitation is a mail the account sends. */
  mailPerHour: number;
  /** Keys the address in the ledger the caps count. */
  addressKeys: AddressKeys;
  /** Seals the invitation's one-click unsubscribe link. */
  unsubscribes: UnsubscribeTokens;
};

/** Why an invitation was not mailed, as the team page says it. */
function refusal(claim: Exclude<InvitationMailClaim, 'claimed'>, email: string, deps: InviteDeps) {
  if (claim === 'owner_hour')
    return `The accounts of this account’s owner sent ${deps.invitationsPerHour} invitations in the last hour; INVITATIONS_PER_HOUR allows no more per owner. Try again later.`;
  // One answer for both: the inviter learns neither that the person opted out nor that
  // other accounts invited them.
  const perDay = deps.invitationsPerAddressPerDay;
  const cap =
    perDay > 0
      ? `an address gets at most ${perDay} invitations a day from all accounts (INVITATIONS_PER_ADDRESS_PER_DAY), and none once it unsubscribed from them`
      : 'an address that unsubscribed from invitations gets none';
  return `${email} cannot be invited now: ${cap}. Try again tomorrow.`;
}

/**
 * Invites an address to the account with a role and mails the link, with a one-click
 * unsubscribe from every invitation. Refused for a member already, for an address that
 * unsubscribed, and beyond the caps: the invitations of the account's owner an hour (all their
 * accounts), those to the address a day from all accounts, and the mail budget, so free
 * accounts cannot use invitations to flood an inbox. The caps count from a ledger no owner action lowers, under
 * locks (claimInvitationMail), in the transaction that stores the invitation. A pending
 * invitation of the same address is revoked: the new one replaces it (and counts). Returns
 * the invitation's id.
 */
export async function inviteMember(
  em: EntityManager,
  deps: InviteDeps,
  input: { accountId: string; invitedByUserId: string; email: string; role: 'admin' | 'viewer' },
): Promise<string> {
  const email = input.email.trim().toLowerCase();
  const userId = await findUserIdByEmail(em, email);
  if (userId && (await em.count(Membership, { accountId: input.accountId, userId })) > 0)
    throw new InvitationRefused(`${email} is already a member of this account.`);
  const token = randomToken(32);
  const id = await em.transactional(async (tx) => {
    const claim = await claimInvitationMail(
      tx,
      { accountId: input.accountId, addressKey: deps.addressKeys.address(email) },
      { perOwnerHour: deps.invitationsPerHour, perAddressDay: deps.invitationsPerAddressPerDay },
    );
    if (claim !== 'claimed') throw new InvitationRefused(refusal(claim, email, deps));
    // In the transaction too: a refusal above or here takes the claim back.
    if (!(await takeHourlyMail(tx, input.accountId, 1, deps.mailPerHour)))
      throw new InvitationRefused(
        'The accounts of this account’s owner used their e-mail budget for this hour (ACCOUNT_MAIL_PER_HOUR, per owner). Try again later.',
      );
    await revokePendingFor(tx, input.accountId, email);
    return insertInvitation(tx, {
      accountId: input.accountId,
      email,
      role: input.role,
      tokenHash: sha256Hex(token),
      invitedByUserId: input.invitedByUserId,
      expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
    });
  });
  const baseUrl = deps.mailing.baseUrl();
  sendAccountMail(deps.mailing.mailer, deps.mailing.logger, {
    kind: 'invitation',
    to: email,
    link: `${baseUrl}/invite?token=${encodeURIComponent(token)}`,
    unsubscribe: invitationUnsubscribeUrl(
      { tokens: deps.unsubscribes, baseUrl },
      input.accountId,
      email,
    ),
  });
  return id;
}

export type InvitationState =
  | { kind: 'unknown' | 'used' | 'revoked' | 'declined' | 'expired' }
  | { kind: 'pending'; invitation: InvitationRow };

export function stateOf(invitation: InvitationRow | null): InvitationState {
  if (!invitation) return { kind: 'unknown' };
  if (invitation.acceptedAt) return { kind: 'used' };
  if (invitation.revokedAt) return { kind: 'revoked' };
  if (invitation.declinedAt) return { kind: 'declined' };
  if (invitation.expiresAt.getTime() <= Date.now()) return { kind: 'expired' };
  return { kind: 'pending', invitation };
}

/** What a link's token leads to. */
export async function invitationState(em: EntityManager, token: string): Promise<InvitationState> {
  return stateOf(await findInvitationByHash(em, sha256Hex(token)));
}

export type Acceptance =
  | { kind: 'accepted'; accountId: string }
  | { kind: 'other_address' }
  | Exclude<InvitationState, { kind: 'pending' }>;

/**
 * Accepts the invitation for a signed-in user with its address (compared ignoring case):
 * the membership with its role, once (the row is locked and marked accepted).
 */
export async function acceptInvitation(
  em: EntityManager,
  token: string,
  user: { id: string; email: string },
): Promise<Acceptance> {
  return em.transactional(async (tx) =>
    acceptLocked(tx, await findInvitationByHash(tx, sha256Hex(token), true), user),
  );
}

/**
 * The checks and the membership of every acceptance, by link or by the offer after sign-in
 * (invitation-offers.ts): `invitation` is locked by the caller's transaction.
 */
export async function acceptLocked(
  tx: EntityManager,
  invitation: InvitationRow | null,
  user: { id: string; email: string },
): Promise<Acceptance> {
  const state = stateOf(invitation);
  if (state.kind !== 'pending') return state;
  const pending = state.invitation;
  if (pending.email !== user.email.toLowerCase()) return { kind: 'other_address' };
  if (!(await markAccepted(tx, pending.id))) return { kind: 'used' };
  const existing = await tx.findOne(Membership, { accountId: pending.accountId, userId: user.id });
  if (!existing)
    tx.create(Membership, { accountId: pending.accountId, userId: user.id, role: pending.role });
  await tx.flush();
  return { kind: 'accepted', accountId: pending.accountId };
}

/**
 * Signs up from an invitation: the link proved the address, so the user is confirmed at
 * once, with an account of their own and the membership; the session opens in the invited
 * account. `taken` when the address has a user already (they sign in instead).
 */
export async function signUpFromInvitation(
  em: EntityManager,
  token: string,
  input: { password: string; name?: string },
): Promise<
  | Exclude<Acceptance, { kind: 'accepted' }>
  | { kind: 'taken' }
  | ({ kind: 'signed_up' } & OpenedSession)
> {
  const state = await invitationState(em, token);
  if (state.kind !== 'pending') return state;
  const email = state.invitation.email;
  let user: User;
  try {
    ({ user } = await createAccount(em, { email, password: input.password, name: input.name }));
  } catch (error) {
    if (!(error instanceof EmailTakenError)) throw error;
    const existing = await unconfirmedUser(em, email);
    if (!existing) return { kind: 'taken' };
    // A sign-up never confirmed: the link proves the address as a confirmation link does,
    // so its holder sets the password and the older confirmation links stop working.
    existing.passwordHash = await hashPassword(input.password);
    existing.emailConfirmedAt = new Date();
    await em.flush();
    await deleteAccountTokens(em, existing.id, 'confirm_email');
    user = existing;
  }
  const accepted = await acceptInvitation(em, token, user);
  if (accepted.kind !== 'accepted') return accepted;
  const opened = await openSession(em, user, accepted.accountId);
  if (!opened) throw new Error('the membership just made was not found');
  return { kind: 'signed_up', ...opened };
}

async function unconfirmedUser(em: EntityManager, email: string): Promise<User | null> {
  const userId = await findUserIdByEmail(em, email);
  const user = userId ? await em.findOne(User, { id: userId }) : null;
  return user && !user.emailConfirmedAt ? user : null;
}

/**
 * Whether the address has a user who can sign in (the invitation page offers sign-in, else
 * sign-up: an unconfirmed sign-up is completed by the invitation).
 */
export async function hasConfirmedUser(em: EntityManager, email: string): Promise<boolean> {
  const userId = await findUserIdByEmail(em, email);
  return userId !== null && (await unconfirmedUser(em, email)) === null;
}
