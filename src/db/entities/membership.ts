import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { bigintColumn, createdAtColumn, timestampColumn, updatedAtColumn } from './columns';

/** A user's place in an account: its role there (owner, admin or viewer). */
export const Membership = defineEntity({
  name: 'Membership',
  tableName: 'memberships',
  properties: {
    accountId: bigintColumn().primary(),
    userId: bigintColumn().primary(),
    role: p.string(),
    /** When a session last chose this account; sign-in returns to the latest. */
    lastUsedAt: timestampColumn().nullable(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
});
export type Membership = InferEntity<typeof Membership>;
