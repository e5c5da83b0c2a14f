import type { Orm } from '../src/db/orm';
import { recordSpamVerdict } from '../src/db/sql/submissions';
import { selectSpamCheckRow, type SpamCheckRow } from '../src/db/sql/workflow-step-reads';
import { BURST_WINDOW_MINUTES } from '../src/domain/spam/burst';
import type { SpamReason } from '../src/domain/spam/reasons';
import { spamReasonAt } from '../src/domain/spam/rules';
import { submissionsTotal } from '../src/domain/metrics/registry';
import { submittedText } from '../src/domain/spam/submitted-text';
import type { SpamActivities } from '../workflows/activity-contracts';

/**
 * The spam activity: applies the content rules (docs/spam-rules.md) and the burst rule to a
 * submission and records the verdict. A verdict already recorded, ingest's honeypot or an
 * earlier run of this activity, stands, so retries and replays give the same state. Two
 * statements: one reads the submission with the burst rule's count, one stores the verdict.
 */
export function createSpamActivities(orm: Orm): SpamActivities {
  return {
    async checkSpam(submissionId) {
      const em = orm.em.fork();
      const submission = await selectSpamCheckRow(em, submissionId, BURST_WINDOW_MINUTES);
      if (!submission) return { isSpam: false, reason: 'submission_missing' };
      const alreadyJudged = submission.isSpam || submission.spamCheckedAt !== null;
      const reason = alreadyJudged ? null : spamReason(submission);
      // Stored unless a verdict already is; the stored verdict is the answer.
      const stored = await recordSpamVerdict(em, submissionId, reason);
      // Counted by the first check only (ingest's honeypot verdict included), not by retries.
      if (stored?.isSpam && submission.spamCheckedAt === null)
        submissionsTotal.inc({ outcome: 'spam' });
      return stored ?? { isSpam: false, reason: 'submission_missing' };
    },
  };
}

function spamReason(submission: SpamCheckRow): SpamReason | null {
  return spamReasonAt('workflow', {
    texts: submittedText(submission.payloadJson, submission.id),
    fillMs: submission.fillMs,
    identical: submission.identical ?? 0,
  });
}
