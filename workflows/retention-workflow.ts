import { continueAsNew, proxyActivities } from '@temporalio/workflow';
// Only types cross into workflow code, plus pure helpers: activities run outside the sandbox.
import type { RetentionActivities } from './activity-contracts';
import {
  RETENTION_BATCH_SIZE,
  type RetentionTotals,
  type RetentionWorkflowInput,
  type RetentionWorkflowResult,
} from './retention-contract';

/** Batches per run before continue-as-new, so a run's history stays a few hundred events. */
export const RETENTION_BATCHES_PER_RUN = 100;

// Regular activities, so each batch shows in the Temporal UI with its result; a database
// restart is waited out.
const { purgeSubmissionBatch, purgeStaleRows } = proxyActivities<RetentionActivities>({
  startToCloseTimeout: '5m',
  retry: {
    initialInterval: '5s',
    backoffCoefficient: 2,
    maximumInterval: '2m',
    maximumAttempts: 10,
  },
});

const NONE: RetentionTotals = { batches: 0, deleted: 0, spam: 0 };

/**
 * The hourly purge (docs/retention.md), started by the `formward-retention` schedule: deletes
 * expired submissions batch by batch until a batch comes back short, then the stale rows of the
 * mail tables. A long backlog continues as new every RETENTION_BATCHES_PER_RUN batches.
 */
export async function retentionWorkflow(
  input: RetentionWorkflowInput = {},
): Promise<RetentionWorkflowResult> {
  const totals = { ...NONE, ...input.totals };
  for (let run = 0; run < RETENTION_BATCHES_PER_RUN; run++) {
    const batch = await purgeSubmissionBatch({ limit: RETENTION_BATCH_SIZE });
    totals.batches += 1;
    totals.deleted += batch.deleted;
    totals.spam += batch.spam;
    if (batch.deleted < RETENTION_BATCH_SIZE) return { ...totals, stale: await purgeStaleRows() };
  }
  return continueAsNew<typeof retentionWorkflow>({ totals });
}
