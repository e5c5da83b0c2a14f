import type { EntityManager } from '@mikro-orm/postgresql';
import { selectRows } from './execute';

export type PluginTargetRow = { id: string; pluginType: string };

/** The enabled, not deleted plugins of a submission's form, by id. */
export async function enabledPluginsOfSubmission(
  em: EntityManager,
  submissionId: string,
): Promise<PluginTargetRow[]> {
  const rows = await selectRows<{ id: string; plugin_type: string }>(
    em,
    `select p.id, p.plugin_type from plugins p join submissions s on s.form_id = p.form_id
      where s.id = ? and p.enabled and p.deleted_at is null order by p.id`,
    [submissionId],
  );
  return rows.map((row) => ({ id: String(row.id), pluginType: row.plugin_type }));
}
