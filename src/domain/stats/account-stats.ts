import type { EntityManager } from '@mikro-orm/postgresql';

/** The account stats payload of the specification (non-spam submissions only). */
export async function accountStats(em: EntityManager, accountId: string) {
  const connection = em.getConnection();
  const [forms, subs] = await Promise.all([
    connection.execute<{ total: string; active: string }[]>(
      'select count(*) as total, count(*) filter (where is_active) as active from forms where account_id = ?',
      [accountId],
    ),
    connection.execute<{ d1: string; d7: string }[]>(
      `select count(*) filter (where created_at >= now() - interval '24 hours') as d1,
              count(*) as d7
         from submissions
        where account_id = ? and not is_spam and created_at >= now() - interval '7 days'`,
      [accountId],
    ),
  ]);
  return {
    totalForms: Number(forms[0]?.total ?? 0),
    active: Number(forms[0]?.active ?? 0),
    subs24h: Number(subs[0]?.d1 ?? 0),
    subs7d: Number(subs[0]?.d7 ?? 0),
  };
}
