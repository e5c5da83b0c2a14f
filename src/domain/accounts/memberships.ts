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
 */
export async function transferOwnership(
  em: EntityManager,
  accountId: string,
  fromUserId: string,
  toUserId: string,
): Promise<void> {
  if (fromUserId === toUserId) throw new MemberChangeRefused('You are the owner already.');
  await em.transactional(async (tx) => {
    const owner = await lockedMember(tx, accountId, fromUserId);
    if (owner.role !== 'owner') throw new MemberChangeRefused('Only the owner can transfer it.');
    const next = await lockedMember(tx, accountId, toUserId);
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

/** A new account of the user's own, its owner (the header's "new account"). */
export async function createOwnAccount(
  em: EntityManager,
  userId: string,
  name: string,
): Promise<string> {
  return em.transactional(async (tx) => {
    const account = tx.create(Account, { name });
    await tx.flush();
    tx.create(Membership, { accountId: account.id, userId, role: 'owner' });
    await tx.flush();
    return account.id;
  });
}
