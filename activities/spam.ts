import type { Orm } from '../src/db/orm';
import { Submission } from '../src/db/entities';

export type SpamVerdict = { isSpam: boolean; reason: string | null };

export type SpamActivities = {
  checkSpam(submissionId: string): Promise<SpamVerdict>;
};

/**
 * The spam activity: keeps an ingest-time verdict (the honeypot) and records that the check
 * ran. Idempotent: running it twice leaves the same state.
 */
export function createSpamActivities(orm: Orm): SpamActivities {
  return {
    async checkSpam(submissionId) {
      const em = orm.em.fork();
      const submission = await em.findOne(Submission, { id: submissionId });
      if (!submission) return { isSpam: false, reason: 'submission_missing' };
      submission.spamCheckedAt ??= new Date();
      await em.flush();
      return { isSpam: submission.isSpam, reason: submission.spamReason };
    },
  };
}
