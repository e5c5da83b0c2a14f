import type { EntityManager } from '@mikro-orm/postgresql';
import { bigintArray, selectRows } from './execute';

// Aggregates over submissions, for the forms list and the stats endpoints. They count the
// submissions the retention purge deleted too (docs/retention.md): counts and stats stay.

/** Every submission ever counted: those stored and those purged (their facts kept). */
const COUNTED = `(select id, form_id, account_id, is_spam, spam_reason, created_at from submissions
  union all
  select id, form_id, account_id, is_spam, spam_reason, created_at from purged_submissions)`;

export type FormSubmissionCounts = {
  formId: string;
  submissions: number;
  spam: number;
  /** The latest non-spam submission's time. */
  lastAt: Date | null;
};

/** Non-spam and spam counts per form, for the forms that have submissions. */
export async function submissionCountsPerForm(
  em: EntityManager,
  formIds: string[],
): Promise<FormSubmissionCounts[]> {
  const rows = await selectRows<{
    form_id: string;
    submissions: string;
    spam: string;
    last_at: Date | null;
  }>(
    em,
    `select form_id,
          count(*) filter (where not is_spam) as submissions,
          count(*) filter (where is_spam) as spam,
          max(created_at) filter (where not is_spam) as last_at
     from ${COUNTED} s where form_id = any(?::bigint[]) group by form_id`,
    [bigintArray(formIds)],
  );
  return rows.map((row) => ({
    formId: String(row.form_id),
    submissions: Number(row.submissions),
    spam: Number(row.spam),
    lastAt: row.last_at ? new Date(row.last_at) : null,
  }));
}

export type FormTotals = {
  total: number;
  spam: number;
  last24h: number;
  last7d: number;
  last30d: number;
  spam30d: number;
  /** The latest non-spam submission's time. */
  lastAt: Date | null;
};

/** A form's non-spam counts (all time, 24 hours, 7 and 30 days) and spam counts. */
export async function formTotals(em: EntityManager, formId: string): Promise<FormTotals> {
  const [row] = await selectRows<Record<string, string | Date | null>>(
    em,
    `select count(*) filter (where not is_spam) as total,
            count(*) filter (where is_spam) as spam,
            count(*) filter (where not is_spam and created_at >= now() - interval '24 hours') as d1,
            count(*) filter (where not is_spam and created_at >= now() - interval '7 days') as d7,
            count(*) filter (where not is_spam and created_at >= now() - interval '30 days') as d30,
            count(*) filter (where is_spam and created_at >= now() - interval '30 days') as spam30,
            max(created_at) filter (where not is_spam) as last_at
       from ${COUNTED} s where form_id = ?`,
    [formId],
  );
  const t = row ?? {};
  return {
    total: Number(t.total ?? 0),
    spam: Number(t.spam ?? 0),
    last24h: Number(t.d1 ?? 0),
    last7d: Number(t.d7 ?? 0),
    last30d: Number(t.d30 ?? 0),
    spam30d: Number(t.spam30 ?? 0),
    lastAt: t.last_at ? new Date(t.last_at as string | Date) : null,
  };
}

export type DailyCount = { date: string; submissions: number; spam: number };

/** Whose submissions a daily series counts: one form's, or every form's of an account. */
export type SeriesScope = { formId: string } | { accountId: string };

/** A form's non-spam and spam counts for each of the last 30 UTC days, oldest first. */
export function formDailyCounts(em: EntityManager, formId: string): Promise<DailyCount[]> {
  return dailyCounts(em, { formId });
}

/** Non-spam and spam counts of a form or an account for each of the last 30 UTC days, oldest first. */
export async function dailyCounts(em: EntityManager, scope: SeriesScope): Promise<DailyCount[]> {
  const [column, id] =
    'formId' in scope ? ['form_id', scope.formId] : ['account_id', scope.accountId];
  const rows = await selectRows<{ day: string; submissions: string; spam: string }>(
    em,
    `select to_char(d.day, 'YYYY-MM-DD') as day,
            count(s.id) filter (where not s.is_spam) as submissions,
            count(s.id) filter (where s.is_spam) as spam
       from generate_series((now() at time zone 'utc')::date - 29, (now() at time zone 'utc')::date, interval '1 day') as d(day)
       left join ${COUNTED} s
         on s.${column} = ? and s.created_at >= d.day at time zone 'utc'
        and s.created_at < (d.day + interval '1 day') at time zone 'utc'
      group by d.day order by d.day`,
    [id],
  );
  return rows.map((row) => ({
    date: row.day,
    submissions: Number(row.submissions),
    spam: Number(row.spam),
  }));
}

/** An account's non-spam submissions of the last 24 hours and 7 days. */
export async function recentAccountCounts(
  em: EntityManager,
  accountId: string,
): Promise<{ last24h: number; last7d: number }> {
  const [row] = await selectRows<{ d1: string; d7: string }>(
    em,
    `select count(*) filter (where created_at >= now() - interval '24 hours') as d1,
            count(*) as d7
       from ${COUNTED} s
      where account_id = ? and not is_spam and created_at >= now() - interval '7 days'`,
    [accountId],
  );
  return { last24h: Number(row?.d1 ?? 0), last7d: Number(row?.d7 ?? 0) };
}

export type SubmissionWindow = { submissions: number; spam: number };

/** Platform-wide submission and spam counts: all time, last 24 hours, last 7 days. */
export async function platformSpamTotals(
  em: EntityManager,
): Promise<{ allTime: SubmissionWindow; last24h: SubmissionWindow; last7d: SubmissionWindow }> {
  const [row] = await selectRows<Record<string, string>>(
    em,
    `select count(*) as total,
            count(*) filter (where is_spam) as spam,
            count(*) filter (where created_at >= now() - interval '24 hours') as total24,
            count(*) filter (where is_spam and created_at >= now() - interval '24 hours') as spam24,
            count(*) filter (where created_at >= now() - interval '7 days') as total7,
            count(*) filter (where is_spam and created_at >= now() - interval '7 days') as spam7
       from ${COUNTED} s`,
  );
  const t = row ?? {};
  const window = (total: string | undefined, spam: string | undefined) => ({
    submissions: Number(total ?? 0),
    spam: Number(spam ?? 0),
  });
  return {
    allTime: window(t.total, t.spam),
    last24h: window(t.total24, t.spam24),
    last7d: window(t.total7, t.spam7),
  };
}

/** Spam submissions by reason (`unspecified` when none was recorded), most frequent first. */
export async function spamCountsByReason(
  em: EntityManager,
): Promise<{ reason: string; count: number }[]> {
  const rows = await selectRows<{ reason: string; count: string }>(
    em,
    `select coalesce(spam_reason, 'unspecified') as reason, count(*) as count
       from ${COUNTED} s where is_spam group by 1 order by 2 desc`,
  );
  return rows.map((row) => ({ reason: row.reason, count: Number(row.count) }));
}
