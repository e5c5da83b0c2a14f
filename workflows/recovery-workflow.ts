import {
  continueAsNew,
  executeChild,
  ParentClosePolicy,
  proxyLocalActivities,
  sleep,
} from '@temporalio/workflow';
// Only types cross into workflow code, plus pure helpers: activities run outside the sandbox.
import type { RecoveryActivities } from './activity-contracts';
import { DATABASE_STEP } from './database-step';
import {
  recoveryChildWorkflowId,
  type RecoveryCandidate,
  type RecoveryWorkflowInput,
  type RecoveryWorkflowResult,
} from './recovery-contract';
import { REDELIVERY } from './submission-contract';
import { submissionWorkflow } from './submission-workflow';

/** Candidates read at once; their children run together, then progress is recorded. */
export const RECOVERY_PAGE_SIZE = 50;
/** Children per run before continue-as-new, so a run's history stays a few thousand events. */
export const RECOVERY_CHILDREN_PER_RUN = 300;

const { recoveryPage, recordRecoveryProgress } =
  proxyLocalActivities<RecoveryActivities>(DATABASE_STEP);

/** Delivers one candidate again: true when its plugin got it. */
async function redeliver(input: RecoveryWorkflowInput, candidate: RecoveryCandidate) {
  try {
    const result = await executeChild(submissionWorkflow, {
      workflowId: recoveryChildWorkflowId(candidate.submissionId, input.recoveryId),
      args: [
        {
          submissionId: candidate.submissionId,
          mode: REDELIVERY,
          delivery: input.delivery,
          recover: {
            pluginId: input.pluginId,
            pluginType: input.pluginType,
            deliveryId: candidate.deliveryId,
            attemptOffset: candidate.attemptOffset,
          },
        },
      ],
      // The run waits for its children; cancelling or terminating it stops them too.
      parentClosePolicy: ParentClosePolicy.TERMINATE,
    });
    return result.deliveries.length > 0 && result.deliveries.every((d) => d.ok);
  } catch {
    return false;
  }
}

/**
 * One recovery run (`recovery-{id}`, docs/recovery.md): pages through the plugin's submissions
 * whose last delivery failed or was skipped, starts a child submission workflow for each at
 * most `ratePerSecond` a second, waits for a page's children and records the counts, and
 * continues as new every RECOVERY_CHILDREN_PER_RUN children.
 */
export async function recoveryWorkflow(
  input: RecoveryWorkflowInput,
): Promise<RecoveryWorkflowResult> {
  const { recoveryId } = input;
  const rate = Math.max(1, Math.floor(input.ratePerSecond));
  let { cursor, done, failed } = input.progress ?? { cursor: null, done: 0, failed: 0 };
  let children = 0;

  for (;;) {
    const page = await recoveryPage({ recoveryId, after: cursor, limit: RECOVERY_PAGE_SIZE });
    if (page.stopped !== null || page.candidates.length === 0) {
      const status = page.stopped === null ? 'completed' : 'failed';
      await recordRecoveryProgress({ recoveryId, done, failed, status });
      return { recoveryId, status, done, failed };
    }

    const delivered: Promise<boolean>[] = [];
    for (const [index, candidate] of page.candidates.entries()) {
      if (index > 0 && index % rate === 0) await sleep(1000);
      delivered.push(redeliver(input, candidate));
    }
    const outcomes = await Promise.all(delivered);
    const ok = outcomes.filter(Boolean).length;
    done += ok;
    failed += outcomes.length - ok;
    cursor = page.cursor;

    // A short page was the last: the window is closed (until = the request time).
    const finished = page.candidates.length < RECOVERY_PAGE_SIZE;
    const status = finished ? 'completed' : 'running';
    await recordRecoveryProgress({ recoveryId, done, failed, status });
    if (finished) return { recoveryId, status: 'completed', done, failed };

    children += page.candidates.length;
    if (children >= RECOVERY_CHILDREN_PER_RUN) {
      return continueAsNew<typeof recoveryWorkflow>({
        ...input,
        progress: { cursor, done, failed },
      });
    }
    // The next page's first starts wait their turn like the rest.
    await sleep(1000);
  }
}
