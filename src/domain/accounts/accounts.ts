import type { EntityManager } from '@mikro-orm/postgresql';
import { Account, Membership, User } from '../../db/entities';
import { findUserIdByEmail } from '../../db/sql/users';
import { hashPassword } from './passwords';

export class EmailTakenError extends Error {
  constructor(email: string) {
    super(`an account with e-mail ${email} already exists`);
  }
}

/**
 * Creates an account with its first user, its owner. Operators' accounts (`formward account create`)
 * are confirmed at once; the dashboard's sign-up passes `confirmed: false` and mails a link.
 */
export async function createAccount(
  em: EntityManager,
  input: { email: string; name?: string; confirmed?: boolean } & (
    | { password: string }
    /** Already hashed (sign-up hashes before it knows whether the address is new). */
    | { passwordHash: string }
  ),
): Promise<{ account: Account; user: User }> {
  const email = input.email.trim().toLowerCase();
  if ((await findUserIdByEmail(em, email)) !== null) throw new EmailTakenError(email);
  const passwordHash =
    'passwordHash' in input ? input.passwordHash : await hashPassword(input.password);
  return em.transactional(async (tx) => {
    const account = tx.create(Account, { name: input.name ?? email });
    await tx.flush();
    const user = tx.create(User, {
      email,
      name: input.name ?? null,
      passwordHash,
      emailConfirmedAt: input.confirmed === false ? null : new Date(),
    });
    await tx.flush();
    tx.create(Membership, { accountId: account.id, userId: user.id, role: 'owner' });
    await tx.flush();
    return { account, user };
  });
}
