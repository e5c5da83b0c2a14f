import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import {
  bigintColumn,
  createdAtColumn,
  idColumn,
  timestampColumn,
  updatedAtColumn,
} from './columns';

/** A custom domain an account claimed for its form pages (docs/custom-domains.md). */
export const Domain = defineEntity({
  name: 'Domain',
  tableName: 'domains',
  properties: {
    id: idColumn(),
    accountId: bigintColumn(),
    /** Lower case, ASCII (IDNs punycoded), no trailing dot; unique across accounts. */
    domain: p.string(),
    /** The first passing check; null: never verified, so never served. */
    verifiedAt: timestampColumn().nullable(),
    lastCheckedAt: timestampColumn().nullable(),
    /** The first failing check since the last passing one: the grace runs from here. */
    failingSince: timestampColumn().nullable(),
    lastError: p.text().nullable(),
    /** When the owners were mailed about the current failure. */
    notifiedAt: timestampColumn().nullable(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
});
export type Domain = InferEntity<typeof Domain>;
