import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAtColumn, idColumn, timestampColumn, updatedAtColumn } from './columns';

/** A person who signs in to the dashboard; the accounts they belong to are their memberships. */
export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: idColumn(),
    email: p.string(),
    name: p.string().nullable(),
    passwordHash: p.string(),
    /** Null until the e-mail's confirmation link is followed; unconfirmed users cannot sign in. */
    emailConfirmedAt: timestampColumn().nullable(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
});
export type User = InferEntity<typeof User>;
