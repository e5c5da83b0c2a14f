import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { bigintColumn, idColumn, timestampColumn } from './columns';

/** One change in an account, by whom and from where (docs/audit-log.md). Written only by src/domain/audit. */
export const AuditEvent = defineEntity({
  name: 'AuditEvent',
  tableName: 'audit_events',
  properties: {
    id: idColumn(),
    accountId: bigintColumn(),
    occurredAt: timestampColumn(),
    actorType: p.string(),
    /** No foreign key: the entry outlives the member or key. */
    actorUserId: bigintColumn().nullable(),
    actorApiKeyId: bigintColumn().nullable(),
    /** The e-mail address, or the key's name and prefix, at the time. */
    actorLabel: p.string(),
    clientAddress: p.string().nullable(),
    action: p.string(),
    targetType: p.string().nullable(),
    targetId: p.string().nullable(),
    summary: p.string(),
  },
});
export type AuditEvent = InferEntity<typeof AuditEvent>;
