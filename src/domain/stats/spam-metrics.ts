import type { EntityManager } from '@mikro-orm/postgresql';

/** Platform-wide spam aggregates for the public endpoint: counts only, nothing per account. */
export async function spamMetrics(em: EntityManager) {
  const connection = em.getConnection();
  const [totals, reasons] = await Promise.all([
    connection.execute<Record<string, string>[]>(
      `select count(*) as total,
              count(*) filter (where is_spam) as spam,
              count(*) filter (where created_at >= now() - interval '24 hours') as total24,
              count(*) filter (where is_spam and created_at >= now() - interval '24 hours') as spam24,
              count(*) filter (where created_at >= now() - interval '7 days') as total7,
              count(*) filter (where is_spam and created_at >= now() - interval '7 days') as spam7
         from submissions`,
    ),
    connection.execute<{ reason: string; count: string }[]>(
      `select coalesce(spam_reason, 'unspecified') as reason, count(*) as count
         from submissions where is_spam group by 1 order by 2 desc`,
    ),
  ]);
  const t = totals[0] ?? {};
  const window = (total: number, spam: number) => ({
    submissions: total,
    spam,
    spam_ratio: total === 0 ? 0 : Math.round((spam / total) * 10_000) / 10_000,
  });
  return {
    generated_at: new Date().toISOString(),
    all_time: window(Number(t.total ?? 0), Number(t.spam ?? 0)),
    last_24h: window(Number(t.total24 ?? 0), Number(t.spam24 ?? 0)),
    last_7d: window(Number(t.total7 ?? 0), Number(t.spam7 ?? 0)),
    by_reason: Object.fromEntries(reasons.map((r) => [r.reason, Number(r.count)])),
  };
}
