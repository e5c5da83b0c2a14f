import type { EntityManager } from '@mikro-orm/postgresql';
import type { User } from '../../db/entities';

/**
 * Runs after a sign-in through an outside provider (single sign-on) found or created the
 * user, before their session opens: the place where what waits for a verified address
 * applies (pending invitations to that address, docs/teams.md). Nothing yet.
 */
export async function afterExternalSignIn(
  em: EntityManager,
  user: Pick<User, 'id' | 'email'>,
): Promise<void> {
  void em;
  void user;
}
