import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Account, Membership, Session, type ApiKey } from '../../db/entities';
import {
  deleteMemberSessions,
  findMember,
  findMemberEmail,
  listMembers,
  listUserAccounts,
  type MemberRow,
  type UserAccountRow,
} from '../../db/sql/memberships';
import { countOwnedAccounts, lockOwner } from '../../db/sql/account-owners';
import { accountLimitReached, withinBudget } from '../budgets/limit-reached';
import { revokeMemberKeys, type KeyRevocationAuthor } from './member-keys';

export {
  findMember,
  findMemberEmail,
  listMembers,
  listUserAccounts,
  type MemberRow,
  type UserAccountRow,
};

/** Why a change to the members was refused, in words for the team page. */
export class MemberChangeRefused extends Error {
  override name = 'MemberChangeRefused';
}

async function lockedMember(tx: EntityManager, accountId: string, userId: string) {
  const member = await tx.findOne(
    Membership,
    { accountId, userId },
    { lockMode: LockMode.PESSIMISTIC_WRITE },
  );
  if (!member) throw new MemberChangeRefused('That person is not a member of this account.');
  return member;
}

/**
 * Gives a member (not the owner) another role. A lower one ends their sessions in the
 * account at once (they sign in again with the new role) and revokes the API keys they
 * created: a viewer may hold no key beyond reading. Returns the keys revoked.
 */
export async function changeMemberRole(
  em: EntityManager,
  change: { accountId: string; userId: string; role: 'admin' | 'viewer'; by: KeyRevocationAuthor },
): Promise<ApiKey[]> {
  const { accountId, userId, role } = change;
  return em.transactional(async (tx) => {
    const member = await lockedMember(tx, accountId, userId);
    if (member.role === 'owner')
      throw new MemberChangeRefused('The owner’s role changes only by transferring ownership.');
    const lowered = member.role === 'admin' && role === 'viewer';
    member.role = role;
    await tx.flush();
    if (!lowered) return [];
    await deleteMemberSessions(tx, accountId, userId);
    return revokeMemberKeys(tx, {
      accountId,
      userId,
      reason: 'its creator is now a viewer',
      by: change.by,
    });
  });
}

/**
 * Removes a member (never the owner) and ends their sessions in the account. The keys they
 * created are revoked with them unless `keepKeys` (the owner's choice at removal); returns
 * the keys revoked.
 */
export async function removeMember(
  em: EntityManager,
  removal: { accountId: string; userId: string; keepKeys?: boolean; by: KeyRevocationAuthor },
): Promise<ApiKey[]> {
  const { accountId, userId } = removal;
  return em.transactional(async (tx) => {
    const member = await lockedMember(tx, accountId, userId);
    if (member.role === 'owner')
      throw new MemberChangeRefused('The owner cannot be removed; transfer ownership first.');
    await tx.nativeDelete(Membership, { accountId, userId });
    await deleteMemberSessions(tx, accountId, userId);
    if (removal.keepKeys) return [];
    const reason =
      removal.by.userId === userId ? 'its creator left the account' : 'its creator was removed';
    return revokeMemberKeys(tx, { accountId, userId, reason, by: removal.by });
  });
}

/**
 * Makes another member the owner and the old owner an admin, in one transaction: the old
 * owner's row changes first, so the index that allows one owner per account never sees two.
 * Refused when the new owner owns `maxOwned` accounts already (MAX_ACCOUNTS_PER_USER; 0: no
 * limit), counted under their lock like a creation.
 */
export async function transferOwnership(
  em: EntityManager,
  accountId: string,
  fromUserId: string,
  toUserId: string,
  maxOwned: number,
): Promise<void> {
  if (fromUserId === toUserId) throw new MemberChangeRefused('You are the owner already.');
  await em.transactional(async (tx) => {
    const owner = await lockedMember(tx, accountId, fromUserId);
    if (owner.role !== 'owner') throw new MemberChangeRefused('Only the owner can transfer it.');
    const next = await lockedMember(tx, accountId, toUserId);
    await lockOwner(tx, toUserId);
    const owned = await countOwnedAccounts(tx, toUserId);
    if (!withinBudget(owned, maxOwned))
      throw new MemberChangeRefused(
        `That member owns ${owned} accounts already; MAX_ACCOUNTS_PER_USER allows at most ${maxOwned}.`,
      );
    await tx.nativeUpdate(Membership, { accountId, userId: owner.userId }, { role: 'admin' });
    await tx.nativeUpdate(Membership, { accountId, userId: next.userId }, { role: 'owner' });
  });
}

/**
 * Moves a session to another of its user's accounts (the header's switcher): false when the
 * user is no member there.
 */
export async function switchSessionAccount(
  em: EntityManager,
  session: { sessionId: string; userId: string },
  accountId: string,
): Promise<boolean> {
  return em.transactional(async (tx) => {
    const member = await tx.findOne(Membership, { accountId, userId: session.userId });
    if (!member) return false;
    member.lastUsedAt = new Date();
    await tx.flush();
    await tx.nativeUpdate(Session, { id: session.sessionId }, { accountId });
    return true;
  });
}

/**
 * A new account of the user's own, its owner (the header's "new account"), unless the user
 * owns `maxOwned` already (MAX_ACCOUNTS_PER_USER; 0: no limit; else LimitReachedError):
 * counted under the user's owner lock, so parallel creations cannot pass it together.
 */
export async function createOwnAccount(
  em: EntityManager,
  userId: string,
  name: string,
  maxOwned: number,
): Promise<string> {
  return em.transactional(async (tx) => {
    await lockOwner(tx, userId);
    const owned = await countOwnedAccounts(tx, userId);
    if (!withinBudget(owned, maxOwned)) throw accountLimitReached(owned, maxOwned);
    const account = tx.create(Account, { name });
    await tx.flush();
    tx.create(Membership, { accountId: account.id, userId, role: 'owner' });
    await tx.flush();
    return account.id;
  });
}
