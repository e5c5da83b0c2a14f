import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from './execute';

/** The payloads of a form's latest non-spam submissions, newest first (the dry run's sample). */
export async function selectRecentPayloads(
  em: EntityManager,
  formId: string,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const rows = await selectRows<{ payload_json: Record<string, unknown> }>(
    em,
    `select payload_json from submissions
      where form_id = ? and not is_spam
      order by created_at desc, id desc limit ?`,
    [formId, limit],
  );
  return rows.map((row) => row.payload_json);
}
