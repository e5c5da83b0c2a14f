import type { EntityManager } from '@mikro-orm/postgresql';
import {
  findInvitationById,
  listOpenInvitationsTo,
  markDeclined,
  type InvitationRow,
} from '../../db/sql/invitations';
import { acceptLocked, stateOf, type Acceptance } from './invitations';

/*
 * Invitations offered to a signed-in user (docs/teams.md): no sign-in, password or single
 * sign-on, joins an account by itself; the user sees the invitations to their address and
 * accepts or declines each with a click.
 */

/** The open invitations to the user's address, newest first. */
export function invitationsOfferedTo(
  em: EntityManager,
  user: { email: string },
): Promise<InvitationRow[]> {
  return listOpenInvitationsTo(em, user.email);
}

const isInvitationId = (id: string) => /^\d{1,18}$/.test(id);

/** Accepts one offered invitation, with every check its link's acceptance makes. */
export async function acceptOfferedInvitation(
  em: EntityManager,
  id: string,
  user: { id: string; email: string },
): Promise<Acceptance> {
  if (!isInvitationId(id)) return { kind: 'unknown' };
  return em.transactional(async (tx) =>
    acceptLocked(tx, await findInvitationById(tx, id, true), user),
  );
}

export type Declining =
  { kind: 'marked_declined'; accountId: string } | Exclude<Acceptance, { kind: 'accepted' }>;

/** Declines one invitation to the user's address: it stays, marked declined, for the inviter. */
export async function declineOfferedInvitation(
  em: EntityManager,
  id: string,
  user: { email: string },
): Promise<Declining> {
  if (!isInvitationId(id)) return { kind: 'unknown' };
  return em.transactional(async (tx) => {
    const state = stateOf(await findInvitationById(tx, id, true));
    if (state.kind !== 'pending') return state;
    const { invitation } = state;
    if (invitation.email !== user.email.toLowerCase()) return { kind: 'other_address' };
    if (!(await markDeclined(tx, invitation.id))) return { kind: 'used' };
    return { kind: 'marked_declined', accountId: invitation.accountId };
  });
}
