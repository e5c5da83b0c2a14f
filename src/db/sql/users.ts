import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from './execute';

/**
 * The id of the user with this e-mail, compared case-insensitively as the unique index
 * `users_email_unique` on `lower(email)` does; null when there is none.
 */
export async function findUserIdByEmail(em: EntityManager, email: string): Promise<string | null> {
  const [row] = await selectRows<{ id: string }>(
    em,
    'select id from users where lower(email) = lower(?)',
    [email],
  );
  return row ? String(row.id) : null;
}
