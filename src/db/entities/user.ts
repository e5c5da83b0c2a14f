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
    createdAt: createdAtProperty,
    updatedAt: updatedAtProperty,
  },
});
