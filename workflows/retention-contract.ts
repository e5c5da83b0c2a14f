// What crosses the retention workflow's boundary (docs/retention.md). Pure: imported by the
// workflow, its activities and the schedule in src/temporal.

/** Submissions one purge activity deletes at most; a shorter batch was the last. */
export const RETENTION_BATCH_SIZE = 500;

export type PurgeBatchInput = { limit: number };

/** One batch: submissions deleted, and how many of them were spam. */
export type PurgeBatchResult = { deleted: number; spam: number };

/** Rows of the tables no other rule empties, deleted once the submissions are done. */
export type StaleRowsResult = {
  recipientRequests: number;
  mailHours: number;
  purgedAttempts: number;
  autoresponseSends: number;
  /** Audit log entries older than AUDIT_RETENTION_DAYS (absent in histories before it). */
  auditEvents?: number;
  /** Invitations settled a month ago (absent in histories before teams). */
  invitations?: number;
};

/** Counts so far, carried over continue-as-new. */
export type RetentionTotals = { batches: number; deleted: number; spam: number };

export type RetentionWorkflowInput = { totals?: RetentionTotals };

export type RetentionWorkflowResult = RetentionTotals & { stale: StaleRowsResult };
