import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from './execute';
import type { SeriesScope } from './submission-counts';

/** One UTC day of finished delivery attempts: how many succeeded or failed, and how fast. */
export type DeliveryDay = {
  date: string | null;
  succeeded: number;
  failed: number;
  /** Median and 95th percentile of the attempts' durations in ms; null on a day without any. */
  medianMs: number | null;
  p95Ms: number | null;
};

/** The 30 days, oldest first, and the whole 30 days as one (`date: null`). */
export type DeliveryDays = { days: (DeliveryDay & { date: string })[]; total: DeliveryDay };

/**
 * Delivery attempts of a form's or an account's submissions for each of the last 30 UTC days,
 * oldest first, and over all 30. A retry counts as an attempt of its own, so the rate is the attempts' rate;
 * test deliveries and `skipped` records (nothing was sent) are left out. The attempts of
 * submissions the retention purge deleted count too (purged_delivery_attempts, docs/retention.md). `pending_retry` is a failed attempt that will be retried.
 */
export async function dailyDeliveryCounts(
  em: EntityManager,
  scope: SeriesScope,
): Promise<DeliveryDays> {
  const [column, id] =
    'formId' in scope ? ['form_id', scope.formId] : ['account_id', scope.accountId];
  const rows = await selectRows<{
    day: string | null;
    succeeded: string;
    failed: string;
    median_ms: number | null;
    p95_ms: number | null;
  }>(
    em,
    `with attempts as (
       select d.started_at, d.status, d.duration_ms
         from delivery_attempts d join submissions s on s.id = d.submission_id
        where s.${column} = ? and not d.is_test and d.status <> 'skipped'
          and d.started_at >= ((now() at time zone 'utc')::date - 29) at time zone 'utc'
       union all
       select p.started_at, p.status, p.duration_ms from purged_delivery_attempts p
        where p.${column} = ?
          and p.started_at >= ((now() at time zone 'utc')::date - 29) at time zone 'utc')
     select to_char(day.d, 'YYYY-MM-DD') as day,
            count(a.status) filter (where a.status = 'succeeded') as succeeded,
            count(a.status) filter (where a.status <> 'succeeded') as failed,
            percentile_cont(0.5) within group (order by a.duration_ms) as median_ms,
            percentile_cont(0.95) within group (order by a.duration_ms) as p95_ms
       from generate_series((now() at time zone 'utc')::date - 29, (now() at time zone 'utc')::date, interval '1 day') as day(d)
       left join attempts a
         on a.started_at >= day.d at time zone 'utc'
        and a.started_at < (day.d + interval '1 day') at time zone 'utc'
      group by grouping sets ((day.d), ()) order by day.d nulls last`,
    [id, id],
  );
  const ms = (value: number | null) => (value === null ? null : Math.round(Number(value)));
  const all = rows.map((row) => ({
    date: row.day,
    succeeded: Number(row.succeeded),
    failed: Number(row.failed),
    medianMs: ms(row.median_ms),
    p95Ms: ms(row.p95_ms),
  }));
  const days = all.filter((row): row is DeliveryDay & { date: string } => row.date !== null);
  return { days, total: all.find((row) => row.date === null)! };
}
