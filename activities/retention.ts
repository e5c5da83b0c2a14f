import type { Orm } from '../src/db/orm';
import { purgeOldAuditEvents } from '../src/domain/audit/audit-log';
import { deleteIfDelivered, purgeBatch, purgeStale } from '../src/domain/retention/retention-purge';
import type { RetentionActivities } from '../workflows/activity-contracts';

/** Retention's database steps (docs/retention.md). */
export function createRetentionActivities(deps: {
  orm: Orm;
  spamRetentionDays: number;
  /** AUTORESPONSE_INTERVAL: how long autoresponse sends still decide something. */
  autoresponseIntervalMs: number;
  /** AUDIT_RETENTION_DAYS (docs/audit-log.md). */
  auditRetentionDays: number;
}): RetentionActivities {
  const { orm, spamRetentionDays, autoresponseIntervalMs, auditRetentionDays } = deps;
  return {
    purgeSubmissionBatch: ({ limit }) => purgeBatch(orm, { spamRetentionDays, limit }),
    // The audit log's old entries go with the other stale rows, in batches of their own.
    purgeStaleRows: async () => ({
      ...(await purgeStale(orm, { autoresponseIntervalMs })),
      auditEvents: await purgeOldAuditEvents(orm, auditRetentionDays),
    }),
    deleteDeliveredSubmission: (submissionId) => deleteIfDelivered(orm, submissionId),
  };
}
