import { BigIntType, EntitySchema, OptionalProps } from '@mikro-orm/core';
import { bigintColumn, createdAtProperty, idProperty } from './timestamps';

/** A bearer key. Only the SHA-256 of the key is kept; `prefix` lets people recognise it. */
export class ApiKey {
  [OptionalProps]?: 'createdAt';
  id!: string;
  accountId!: string;
  name!: string;
  prefix!: string;
  keyHash!: string;
  scopes!: string[];
  role!: string | null;
  lastUsedAt!: Date | null;
  revokedAt!: Date | null;
  /** The dashboard user who created the key; null for CLI keys and older ones. */
  createdByUserId!: string | null;
  createdAt!: Date;
}

export const ApiKeySchema = new EntitySchema<ApiKey>({
  class: ApiKey,
  tableName: 'api_keys',
  properties: {
    id: idProperty,
    accountId: bigintColumn,
    name: { type: 'string' },
    prefix: { type: 'string' },
    keyHash: { type: 'string' },
    scopes: { type: 'text[]' },
    role: { type: 'string', nullable: true },
    lastUsedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    revokedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    createdByUserId: { type: new BigIntType('string'), nullable: true },
    createdAt: createdAtProperty,
  },
});
