import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { bigintColumn, createdAtProperty, idProperty } from './timestamps';

/** A signed-in dashboard browser. The cookie holds a random token; we keep its hash. */
export class Session {
  [OptionalProps]?: 'createdAt' | 'lastSeenAt';
  id!: string;
  userId!: string;
  accountId!: string;
  tokenHash!: string;
  csrfToken!: string;
  expiresAt!: Date;
  /** Refreshed at most once a minute; a session idle for longer than the timeout is refused. */
  lastSeenAt!: Date;
  createdAt!: Date;
}

export const SessionSchema = new EntitySchema<Session>({
  class: Session,
  tableName: 'sessions',
  properties: {
    id: idProperty,
    userId: bigintColumn,
    accountId: bigintColumn,
    tokenHash: { type: 'string' },
    csrfToken: { type: 'string' },
    expiresAt: { type: 'datetime', columnType: 'timestamptz' },
    lastSeenAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    createdAt: createdAtProperty,
  },
});
