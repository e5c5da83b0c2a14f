import type { EntityManager } from '@mikro-orm/postgresql';
import { findAccountSubmission } from '../submissions/submission-queries';
import type { ReplayBudget } from './replay-budget';

/** Starts a replay workflow (src/temporal/workflow-starter.ts implements it). */
export type ReplayStarter = {
  replay(submissionId: string): Promise<{ workflowId: string; runId: string }>;
};

export type ReplayOutcome =
  | { outcome: 'not_found' }
  | { outcome: 'spam' }
  | { outcome: 'rate_limited'; retryAfterSeconds: number; perMinute: number }
  | { outcome: 'unavailable'; error: Error }
  | { outcome: 'started'; submissionId: string; workflowId: string; runId: string };

/**
 * Delivers a submission of the account to its form's enabled plugins again, in a new workflow
 * (docs/webhook-delivery.md). Spam is never delivered, so it cannot be replayed;
 * `rate_limited`: the account's owner used their replays of this minute (REPLAY_RATE, summed
 * over the accounts they own);
 * `unavailable`: Temporal could not be reached.
 */
export async function replaySubmission(
  em: EntityManager,
  services: { workflows: ReplayStarter; replayBudget: ReplayBudget },
  accountId: string,
  id: string,
): Promise<ReplayOutcome> {
  const { workflows, replayBudget } = services;
  const submission = await findAccountSubmission(em, accountId, id);
  if (!submission) return { outcome: 'not_found' };
  if (submission.is_spam) return { outcome: 'spam' };
  const wait = await replayBudget.consume(em, accountId);
  if (wait > 0)
    return { outcome: 'rate_limited', retryAfterSeconds: wait, perMinute: replayBudget.perMinute };
  const submissionId = String(submission.id);
  try {
    return { outcome: 'started', submissionId, ...(await workflows.replay(submissionId)) };
  } catch (error) {
    return { outcome: 'unavailable', error: error as Error };
  }
}
