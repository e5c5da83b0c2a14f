import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { bigintColumn, createdAtColumn, idColumn, timestampColumn } from './columns';

/** A bearer key. Only the SHA-256 of the key is kept; `prefix` lets people recognise it. */
export const ApiKey = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: idColumn(),
    accountId: bigintColumn(),
    name: p.string(),
    prefix: p.string(),
    keyHash: p.string(),
    scopes: p.type('text[]').$type<string[]>(),
    role: p.string().nullable(),
    lastUsedAt: timestampColumn().nullable(),
    revokedAt: timestampColumn().nullable(),
    /** The dashboard user who created the key; null for CLI keys and older ones. */
    createdByUserId: bigintColumn().nullable(),
    createdAt: createdAtColumn(),
  },
});
export type ApiKey = InferEntity<typeof ApiKey>;
