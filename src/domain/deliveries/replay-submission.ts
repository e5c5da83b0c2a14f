import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { UseCaseAudit } from '../audit/use-case-audit';
import { findAccountSubmission } from '../submissions/submission-queries';
import type { ReplayBudget } from './replay-budget';

/** Starts a replay workflow (src/pipeline/4-start-workflow.ts implements it). */
export type ReplayStarter = {
  replay(submissionId: string): Promise<{ workflowId: string; runId: string }>;
};

/** What a replay needs (the app context has it all). */
export type ReplayDeps = {
  workflows: ReplayStarter;
  replayBudget: ReplayBudget;
  logger: Pick<Logger, 'warn'>;
};

export type ReplayOutcome =
  | { outcome: 'not_found' }
  | { outcome: 'spam' }
  | { outcome: 'rate_limited'; retryAfterSeconds: number; perMinute: number }
  | { outcome: 'unavailable'; error: Error }
  | {
      outcome: 'started';
      submissionId: string;
      workflowId: string;
      runId: string;
      audit: UseCaseAudit;
    };

/**
 * Delivers a submission of the account to its form's enabled plugins again, in a new workflow
 * (docs/webhook-delivery.md), for `POST /api/submissions/{id}/replay` and the dashboard's
 * replay button. Spam is never delivered, so it cannot be replayed; `rate_limited`: the
 * account's owner used their replays of this minute (REPLAY_RATE, summed over the accounts
 * they own); `unavailable`: Temporal could not be reached (logged here). Only a started
 * replay is an event for the audit log: every other outcome changed nothing.
 */
export async function replaySubmission(
  em: EntityManager,
  deps: ReplayDeps,
  accountId: string,
  id: string,
): Promise<ReplayOutcome> {
  const { workflows, replayBudget } = deps;
  const submission = await findAccountSubmission(em, accountId, id);
  if (!submission) return { outcome: 'not_found' };
  if (submission.is_spam) return { outcome: 'spam' };
  const wait = await replayBudget.consume(em, accountId);
  if (wait > 0)
    return { outcome: 'rate_limited', retryAfterSeconds: wait, perMinute: replayBudget.perMinute };
  const submissionId = String(submission.id);
  let started: { workflowId: string; runId: string };
  try {
    started = await workflows.replay(submissionId);
  } catch (error) {
    deps.logger.warn({ err: (error as Error).message }, 'replay could not start');
    return { outcome: 'unavailable', error: error as Error };
  }
  return {
    outcome: 'started',
    submissionId,
    ...started,
    audit: { targetId: submissionId },
  };
}
