import type { EntityManager } from '@mikro-orm/postgresql';
import type { Plugin } from '../../db/entities';
import type { UseCaseAudit } from '../../domain/audit/use-case-audit';
import { softDeletePlugin } from './plugins';

/**
 * Removing a plugin of any type, for `DELETE /api/forms/{id}/plugins/{id}` and the dashboard's
 * delete buttons: soft-deleted, so its delivery records keep it and pending retries and
 * recovery runs see it is gone (docs/plugins.md).
 */
export async function deletePlugin(
  em: EntityManager,
  plugin: Plugin,
): Promise<{ audit: UseCaseAudit }> {
  await softDeletePlugin(em, plugin);
  return { audit: { targetId: plugin.id, summary: `deleted ${plugin.pluginType} plugin` } };
}
