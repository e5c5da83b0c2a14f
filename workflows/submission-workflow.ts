import { proxyActivities } from '@temporalio/workflow';
// Only types cross into workflow code: activities run outside the deterministic sandbox.
import type { SpamActivities } from '../activities/spam';

export type SubmissionWorkflowInput = { submissionId: string };

export type SubmissionWorkflowResult = {
  submissionId: string;
  spam: { isSpam: boolean; reason: string | null };
  deliveries: unknown[];
};

const { checkSpam } = proxyActivities<SpamActivities>({
  startToCloseTimeout: '30s',
  retry: {
    initialInterval: '1s',
    backoffCoefficient: 2,
    maximumInterval: '1m',
    maximumAttempts: 20,
  },
});

/**
 * One workflow per submission (`submission-{id}`): the spam check runs first. Delivery to
 * the form's plugins is fanned out after it (the delivery engine).
 */
export async function submissionWorkflow(
  input: SubmissionWorkflowInput,
): Promise<SubmissionWorkflowResult> {
  const spam = await checkSpam(input.submissionId);
  return { submissionId: input.submissionId, spam, deliveries: [] };
}
