import type { EntityManager } from '@mikro-orm/postgresql';
import type { User } from '../../db/entities';
import { acceptPendingInvitationsFor } from '../../db/sql/invitations';

/**
 * Runs after a sign-in through an outside provider (single sign-on) found or created the
 * user, before their session opens: what waits for a verified address applies. Every pending
 * invitation to it is accepted (docs/teams.md), as following its link would; returns the
 * account of the newest one, for the session to act in, or undefined.
 */
export async function afterExternalSignIn(
  em: EntityManager,
  user: Pick<User, 'id' | 'email'>,
): Promise<string | undefined> {
  const joined = await acceptPendingInvitationsFor(em, user);
  return joined[0];
}
