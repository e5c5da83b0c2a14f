import type { EntityManager } from '@mikro-orm/postgresql';
import type { Form } from '../../db/entities';

/**
 * Per-form stats (the specification leaves the fields open): totals, spam, counts over the
 * last 24 hours / 7 days / 30 days, the last submission, and a 30-day daily series (UTC days).
 */
export async function formStats(em: EntityManager, form: Form) {
  const connection = em.getConnection();
  const [totals, daily] = await Promise.all([
    connection.execute<Record<string, string | Date | null>[]>(
      `select count(*) filter (where not is_spam) as total,
              count(*) filter (where is_spam) as spam,
              count(*) filter (where not is_spam and created_at >= now() - interval '24 hours') as d1,
              count(*) filter (where not is_spam and created_at >= now() - interval '7 days') as d7,
              count(*) filter (where not is_spam and created_at >= now() - interval '30 days') as d30,
              count(*) filter (where is_spam and created_at >= now() - interval '30 days') as spam30,
              max(created_at) filter (where not is_spam) as last_at
         from submissions where form_id = ?`,
      [form.id],
    ),
    connection.execute<{ day: string; submissions: string; spam: string }[]>(
      `select to_char(d.day, 'YYYY-MM-DD') as day,
              count(s.id) filter (where not s.is_spam) as submissions,
              count(s.id) filter (where s.is_spam) as spam
         from generate_series((now() at time zone 'utc')::date - 29, (now() at time zone 'utc')::date, interval '1 day') as d(day)
         left join submissions s
           on s.form_id = ? and s.created_at >= d.day at time zone 'utc'
          and s.created_at < (d.day + interval '1 day') at time zone 'utc'
        group by d.day order by d.day`,
      [form.id],
    ),
  ]);
  const t = totals[0] ?? {};
  const lastAt = t.last_at ? new Date(t.last_at as string | Date).toISOString() : null;
  return {
    form_id: form.id,
    endpoint_token: form.endpointToken,
    is_active: form.isActive,
    total_submissions: Number(t.total ?? 0),
    spam_submissions: Number(t.spam ?? 0),
    subs24h: Number(t.d1 ?? 0),
    subs7d: Number(t.d7 ?? 0),
    subs30d: Number(t.d30 ?? 0),
    spam30d: Number(t.spam30 ?? 0),
    last_submission_at: lastAt,
    daily: daily.map((row) => ({
      date: row.day,
      submissions: Number(row.submissions),
      spam: Number(row.spam),
    })),
  };
}
