import type { EntityManager } from '@mikro-orm/postgresql';
import { dailyDeliveryCounts, type DeliveryDay } from '../../db/sql/delivery-stats';
import { dailyCounts, type DailyCount, type SeriesScope } from '../../db/sql/submission-counts';

export type { DeliveryDay } from '../../db/sql/delivery-stats';
export type { DailyCount, SeriesScope } from '../../db/sql/submission-counts';

/** One row of the 30-day series: submissions, spam and the delivery attempts of one UTC day. */
export type ActivityDay = DailyCount & Omit<DeliveryDay, 'date'>;

/** Delivery latency in ms (median, 95th percentile); null without attempts. */
type Latency = { medianMs: number | null; p95Ms: number | null };

/** The last 30 days of a form or an account, per day and summed up, for the stats pages. */
export type Activity = {
  days: ActivityDay[];
  submissions: number;
  spam: number;
  /** Spam among everything received, 0..1; null without submissions. */
  spamShare: number | null;
  succeeded: number;
  failed: number;
  /** Successful delivery attempts among all attempts, 0..1; null without attempts. */
  successRate: number | null;
  /** The attempts' durations over the 30 days. */
  latency: Latency;
};

const share = (part: number, whole: number) => (whole === 0 ? null : part / whole);

/** Submissions, spam and deliveries of the last 30 UTC days of a form or an account. */
export async function activityOf(em: EntityManager, scope: SeriesScope): Promise<Activity> {
  const [counts, deliveries] = await Promise.all([
    dailyCounts(em, scope),
    dailyDeliveryCounts(em, scope),
  ]);
  const byDate = new Map(deliveries.days.map((day) => [day.date, day]));
  const days = counts.map((count) => {
    const d = byDate.get(count.date);
    return {
      ...count,
      succeeded: d?.succeeded ?? 0,
      failed: d?.failed ?? 0,
      medianMs: d?.medianMs ?? null,
      p95Ms: d?.p95Ms ?? null,
    };
  });
  const sum = (pick: (day: ActivityDay) => number) => days.reduce((n, day) => n + pick(day), 0);
  const submissions = sum((d) => d.submissions);
  const spam = sum((d) => d.spam);
  const { succeeded, failed, medianMs, p95Ms } = deliveries.total;
  return {
    days,
    submissions,
    spam,
    spamShare: share(spam, submissions + spam),
    succeeded,
    failed,
    successRate: share(succeeded, succeeded + failed),
    latency: { medianMs, p95Ms },
  };
}
