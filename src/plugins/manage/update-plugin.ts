import { isDeepStrictEqual } from 'node:util';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Plugin } from '../../db/entities';
import type { UseCaseAudit } from '../../domain/audit/use-case-audit';
import { PluginConfigRefusedError } from './create-plugin';
import { checkPluginRouting } from './plugin-routing';
import { openConfig, sealConfig } from './plugin-secrets';
import { setPluginEnabled } from './plugins';
import { pluginTypeOf } from '../registry';
import type { PluginConfig } from '../plugin-type';
import type { SigningSecretCipher } from '../../domain/secrets/signing-secret';

/**
 * What an update may change; an absent key is left as it is. `headers` (webhooks only)
 * replaces the whole set: an entry without `value` keeps the value stored under that name
 * (docs/plugins.md, "Webhook headers"), since a client cannot read values back.
 */
export type PluginUpdate = {
  enabled?: boolean;
  conditions?: unknown;
  includeFields?: unknown;
  headers?: unknown;
};

/** Problems that are about the config (`url`, `headers…`), not the plugin's own settings. */
export function isConfigProblem(problem: string): boolean {
  return !problem.startsWith('conditions') && !problem.startsWith('include_fields');
}

/**
 * Changing a plugin's settings, for `PATCH /api/forms/{id}/plugins/{id}` and the dashboard's
 * settings page: everything is checked before anything is written (PluginConfigRefusedError
 * with `field: message` problems), then only what differs is written. The audit entry names
 * what changed, and is skipped when nothing did.
 */
export async function updatePlugin(
  em: EntityManager,
  deps: { pluginSecrets: SigningSecretCipher },
  plugin: Plugin,
  update: PluginUpdate,
): Promise<{ audit: UseCaseAudit }> {
  const routed = checkPluginRouting(update);
  const problems = routed.ok ? [] : [...routed.errors];
  let config: PluginConfig | null = null;
  if (update.headers !== undefined) {
    const type = pluginTypeOf(plugin.pluginType);
    if (!type?.changeHeaders) {
      problems.push(`headers: only webhooks have headers, not ${plugin.pluginType} plugins`);
    } else {
      const opened = openConfig(type, plugin.config, deps.pluginSecrets);
      const changed = type.changeHeaders(opened, update.headers);
      if (changed.ok)
        config = changed.config && sealConfig(type, changed.config, deps.pluginSecrets);
      else problems.push(...changed.errors);
    }
  }
  if (!routed.ok || problems.length > 0) throw new PluginConfigRefusedError(problems);

  const changed: string[] = [];
  const { conditions, includeFields } = routed.routing;
  if (conditions !== undefined && !isDeepStrictEqual(conditions, plugin.conditions ?? null)) {
    plugin.conditions = conditions;
    changed.push('conditions');
  }
  if (
    includeFields !== undefined &&
    !isDeepStrictEqual(includeFields, plugin.includeFields ?? null)
  ) {
    plugin.includeFields = includeFields;
    changed.push('include_fields');
  }
  if (config) {
    plugin.config = config;
    changed.push('headers');
  }
  if (changed.length > 0) await em.flush();
  if (update.enabled !== undefined && (await setPluginEnabled(em, plugin, update.enabled)))
    changed.unshift(update.enabled ? 'enabled' : 'disabled');
  return {
    audit: {
      targetId: plugin.id,
      summary: `${changed.join(', ')} on ${plugin.pluginType} plugin`,
      skip: changed.length === 0,
    },
  };
}
