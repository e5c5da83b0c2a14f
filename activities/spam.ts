import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../src/db/orm';
import { Submission } from '../src/db/entities';
import { recordSpamVerdict } from '../src/db/sql/submissions';
import { completesBurst } from '../src/domain/spam/burst';
import type { SpamReason } from '../src/domain/spam/reasons';
import { contentSpamReason } from '../src/domain/spam/rules';
import { submittedText } from '../src/domain/spam/submitted-text';
import type { SpamVerdict } from '../workflows/submission-contract';

export type SpamActivities = {
  checkSpam(submissionId: string): Promise<SpamVerdict>;
};

/**
 * The spam activity: applies the content rules (docs/spam-rules.md) and the burst rule to a
 * submission and records the verdict. A verdict already recorded, ingest's honeypot or an
 * earlier run of this activity, stands, so retries and replays give the same state.
 */
export function createSpamActivities(orm: Orm): SpamActivities {
  return {
    async checkSpam(submissionId) {
      const em = orm.em.fork();
      const submission = await em.findOne(Submission, { id: submissionId });
      if (!submission) return { isSpam: false, reason: 'submission_missing' };
      const alreadyJudged = submission.isSpam || submission.spamCheckedAt !== null;
      const reason = alreadyJudged ? null : await spamReason(em, submission);
      // Stored unless a verdict already is; the stored verdict is the answer.
      const stored = await recordSpamVerdict(em, submissionId, reason);
      return stored ?? { isSpam: false, reason: 'submission_missing' };
    },
  };
}

async function spamReason(em: EntityManager, submission: Submission): Promise<SpamReason | null> {
  const content = contentSpamReason({
    texts: submittedText(submission.payloadJson, submission.id),
    fillMs: submission.fillMs ?? null,
  });
  if (content) return content;
  return (await completesBurst(em, submission.id)) ? 'burst' : null;
}
