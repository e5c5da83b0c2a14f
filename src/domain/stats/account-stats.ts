import type { EntityManager } from '@mikro-orm/postgresql';
import { countAccountForms } from '../../db/sql/forms';
import { recentAccountCounts } from '../../db/sql/submission-counts';

/** The account stats payload of the specification (non-spam submissions only). */
export async function accountStats(em: EntityManager, accountId: string) {
  const [forms, subs] = await Promise.all([
    countAccountForms(em, accountId),
    recentAccountCounts(em, accountId),
  ]);
  return {
    totalForms: forms.total,
    active: forms.active,
    subs24h: subs.last24h,
    subs7d: subs.last7d,
  };
}
