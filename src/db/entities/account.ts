import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { createdAtProperty, idProperty, updatedAtProperty } from './timestamps';

/** A customer: owns users, API keys and forms. Every query of ours is scoped to one. */
export class Account {
  [OptionalProps]?: 'createdAt' | 'updatedAt';
  id!: string;
  name!: string;
  createdAt!: Date;
  updatedAt!: Date;
}

export const AccountSchema = new EntitySchema<Account>({
  class: Account,
  tableName: 'accounts',
  properties: {
    id: idProperty,
    name: { type: 'string' },
    createdAt: createdAtProperty,
    updatedAt: updatedAtProperty,
  },
});
