import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from './execute';

/** What the dry run reads of a form's latest non-spam submissions (dry-run.ts). */
export type RecentSample = {
  /** Of each submission not past the size limit, newest first, only the `names` it has. */
  picked: Record<string, unknown>[];
  /** How many of them were past the size limit, and not read. */
  skipped: number;
  /** The names those submissions used, at most `maxNames`: the newest one's in its order first. */
  names: string[];
};

const RECENT = `select payload_json, pg_column_size(payload_json) > ? as too_big,
         row_number() over (order by created_at desc, id desc) as n
    from submissions where form_id = ? and not is_spam
   order by created_at desc, id desc limit ?`;

/**
 * The latest `limit` non-spam submissions of a form, each read only for the fields `names`
 * (never the whole payload: only those values leave PostgreSQL), and the names they used. A
 * payload stored larger than `maxBytes` (pg_column_size, so without reading it) is counted,
 * not read.
 */
export async function selectRecentSample(
  em: EntityManager,
  formId: string,
  options: { names: readonly string[]; limit: number; maxBytes: number; maxNames: number },
): Promise<RecentSample> {
  const { names, limit, maxBytes, maxNames } = options;
  const rows = await selectRows<{ picked: Record<string, unknown> | null; too_big: boolean }>(
    em,
    `with recent as (${RECENT})
     select too_big, case when too_big then null else
              (select coalesce(jsonb_object_agg(name, payload_json -> name), '{}'::jsonb)
                 from jsonb_array_elements_text(?::jsonb) as name
                where payload_json -> name is not null) end as picked
       from recent order by n`,
    [maxBytes, formId, limit, JSON.stringify(names)],
  );
  const used = await selectRows<{ name: string }>(
    em,
    `with recent as (${RECENT})
     select name from recent, jsonb_object_keys(payload_json) with ordinality as key(name, i)
      where not too_big group by name order by min(array[n, i]) limit ?`,
    [maxBytes, formId, limit, maxNames],
  );
  return {
    picked: rows.flatMap((row) => (row.picked ? [row.picked] : [])),
    skipped: rows.filter((row) => row.too_big).length,
    names: used.map((row) => row.name),
  };
}
