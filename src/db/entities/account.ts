import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAtColumn, idColumn, updatedAtColumn } from './columns';

/** A customer: owns users, API keys and forms. Every query of ours is scoped to one. */
export const Account = defineEntity({
  name: 'Account',
  tableName: 'accounts',
  properties: {
    id: idColumn(),
    name: p.string(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
});
export type Account = InferEntity<typeof Account>;
