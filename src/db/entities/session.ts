import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { bigintColumn, createdAtColumn, idColumn, timestampColumn } from './columns';

/** A signed-in dashboard browser. The cookie holds a random token; we keep its hash. */
export const Session = defineEntity({
  name: 'Session',
  tableName: 'sessions',
  properties: {
    id: idColumn(),
    userId: bigintColumn(),
    accountId: bigintColumn(),
    tokenHash: p.string(),
    csrfToken: p.string(),
    expiresAt: timestampColumn(),
    /** Refreshed at most once a minute; a session idle for longer than the timeout is refused. */
    lastSeenAt: timestampColumn().onCreate(() => new Date()),
    createdAt: createdAtColumn(),
  },
});
export type Session = InferEntity<typeof Session>;
