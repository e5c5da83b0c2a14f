import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { bigintColumn, createdAtProperty, idProperty, updatedAtProperty } from './timestamps';

/** A person who signs in to the dashboard of one account. */
export class User {
  [OptionalProps]?: 'createdAt' | 'updatedAt';
  id!: string;
  accountId!: string;
  email!: string;
  name!: string | null;
  passwordHash!: string;
  /** Null until the e-mail's confirmation link is followed; unconfirmed users cannot sign in. */
  emailConfirmedAt!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;
}

export const UserSchema = new EntitySchema<User>({
  class: User,
  tableName: 'users',
  properties: {
    id: idProperty,
    accountId: bigintColumn,
    email: { type: 'string' },
    name: { type: 'string', nullable: true },
    passwordHash: { type: 'string' },
    emailConfirmedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    createdAt: createdAtProperty,
    updatedAt: updatedAtProperty,
  },
});
