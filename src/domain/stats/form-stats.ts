import type { EntityManager } from '@mikro-orm/postgresql';
import type { Form } from '../../db/entities';
import { formDailyCounts, formTotals } from '../../db/sql/submission-counts';

/**
 * Per-form stats (the specification leaves the fields open): totals, spam, counts over the
 * last 24 hours / 7 days / 30 days, the last submission, and a 30-day daily series (UTC days).
 */
export async function formStats(em: EntityManager, form: Form) {
  const [totals, daily] = await Promise.all([
    formTotals(em, form.id),
    formDailyCounts(em, form.id),
  ]);
  return {
    form_id: form.id,
    endpoint_token: form.endpointToken,
    is_active: form.isActive,
    total_submissions: totals.total,
    spam_submissions: totals.spam,
    subs24h: totals.last24h,
    subs7d: totals.last7d,
    subs30d: totals.last30d,
    spam30d: totals.spam30d,
    last_submission_at: totals.lastAt?.toISOString() ?? null,
    daily,
  };
}
