import type { EntityManager } from '@mikro-orm/postgresql';
import {
  platformSpamTotals,
  spamCountsByReason,
  type SubmissionWindow,
} from '../../db/sql/submission-counts';

/** Platform-wide spam aggregates for the public endpoint: counts only, nothing per account. */
export async function spamMetrics(em: EntityManager) {
  const [totals, reasons] = await Promise.all([platformSpamTotals(em), spamCountsByReason(em)]);
  const window = ({ submissions, spam }: SubmissionWindow) => ({
    submissions,
    spam,
    spam_ratio: submissions === 0 ? 0 : Math.round((spam / submissions) * 10_000) / 10_000,
  });
  return {
    generated_at: new Date().toISOString(),
    all_time: window(totals.allTime),
    last_24h: window(totals.last24h),
    last_7d: window(totals.last7d),
    by_reason: Object.fromEntries(reasons.map((r) => [r.reason, r.count])),
  };
}
