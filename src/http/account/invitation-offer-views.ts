import type { EntityManager } from '@mikro-orm/postgresql';
import { invitationsOfferedTo } from '../../domain/accounts/invitation-offers';
import { shownAccountName } from './shown-account-name';
import type { InvitationOfferView } from '../kit/chrome/template-data';

/** The invitations offered to the signed-in user, as /app and /app/invitations list them. */
export async function offerViews(
  em: EntityManager,
  user: { email: string },
): Promise<InvitationOfferView[]> {
  return (await invitationsOfferedTo(em, user)).map((invitation) => ({
    id: invitation.id,
    accountName: shownAccountName(invitation.accountName),
    inviterEmail: invitation.inviterEmail,
    role: invitation.role,
    expiresAt: invitation.expiresAt,
  }));
}
