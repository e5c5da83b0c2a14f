import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../src/db/orm';
import { Submission } from '../src/db/entities';
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
      return recordVerdict(em, submissionId, reason);
    },
  };
}

async function spamReason(em: EntityManager, submission: Submission): Promise<SpamReason | null> {
  const content = contentSpamReason({
    texts: submittedText(submission.payloadJson, submission.id),
    fillMs: submission.fillMs,
  });
  if (content) return content;
  return (await completesBurst(em, submission.id)) ? 'burst' : null;
}

/**
 * Stores the verdict unless one is already stored and returns the stored verdict. One
 * statement: its conditions see the row as it is when the row lock is taken, so of two
 * concurrent runs only the first writes.
 */
async function recordVerdict(
  em: EntityManager,
  submissionId: string,
  reason: SpamReason | null,
): Promise<SpamVerdict> {
  const [stored] = await em
    .getConnection()
    .execute<{ is_spam: boolean; spam_reason: string | null }[]>(
      `update submissions set
        is_spam = case when not is_spam and spam_checked_at is null then ? else is_spam end,
        spam_reason = case when not is_spam and spam_checked_at is null then ? else spam_reason end,
        spam_checked_at = coalesce(spam_checked_at, now()),
        updated_at = case when spam_checked_at is null then now() else updated_at end
      where id = ?
      returning is_spam, spam_reason`,
      [reason !== null, reason, submissionId],
    );
  if (!stored) return { isSpam: false, reason: 'submission_missing' };
  return { isSpam: stored.is_spam, reason: stored.spam_reason };
}
