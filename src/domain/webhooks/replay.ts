import type { EntityManager } from '@mikro-orm/postgresql';
import { findAccountSubmission } from '../submissions/submission-queries';

/** Starts a replay workflow (src/temporal/workflow-starter.ts implements it). */
export type ReplayStarter = {
  replay(submissionId: string): Promise<{ workflowId: string; runId: string }>;
};

export type ReplayOutcome =
  | { outcome: 'not_found' }
  | { outcome: 'spam' }
  | { outcome: 'unavailable'; error: Error }
  | { outcome: 'started'; submissionId: string; workflowId: string; runId: string };

/**
 * Delivers a submission of the account to its form's enabled plugins again, in a new workflow
 * (docs/webhook-delivery.md). Spam is never delivered, so it cannot be replayed;
 * `unavailable`: Temporal could not be reached.
 */
export async function replaySubmission(
  em: EntityManager,
  workflows: ReplayStarter,
  accountId: string,
  id: string,
): Promise<ReplayOutcome> {
  const submission = await findAccountSubmission(em, accountId, id);
  if (!submission) return { outcome: 'not_found' };
  if (submission.is_spam) return { outcome: 'spam' };
  const submissionId = String(submission.id);
  try {
    return { outcome: 'started', submissionId, ...(await workflows.replay(submissionId)) };
  } catch (error) {
    return { outcome: 'unavailable', error: error as Error };
  }
}
