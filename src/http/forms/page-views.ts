import type { Scope } from '../../domain/accounts/scopes';
import type { Form, Plugin } from '../../domain/entities';
import {
  maskedUrl,
  pluginConfigAccess,
  visiblePluginConfig,
} from '../../plugins/manage/plugin-config-visibility';
import { pluginTypeOf } from '../../plugins/registry';

/*
 * What the dashboard's templates see of a form and of a plugin: plain objects with the fields
 * the pages show, never the entities (a template cannot reach a plugin's sealed signing secret
 * or load a relation).
 */

export type FormRef = { id: string; name: string; isActive: boolean; createdAt: Date };

export const formRef = (form: Form): FormRef => ({
  id: form.id,
  name: form.name,
  isActive: form.isActive,
  createdAt: form.createdAt,
});

/** Who is looking: the session's scopes decide what of a config they see. */
export type PluginViewer = { scopes: ReadonlySet<Scope> };

export type PluginRow = {
  id: string;
  name: string;
  pluginType: string;
  /** The type as pages name it (`Slack`); the stored key for a type this version lacks. */
  typeLabel: string;
  /** Whether it signs its deliveries (a secret to rotate). */
  signs: boolean;
  /** Where it delivers: its declaration's summary of the config the viewer may see. */
  deliversTo: string;
  /** The config the viewer may see (sealed fields masked, capability URLs cut). */
  config: Record<string, unknown>;
  enabled: boolean;
  consecutiveFailures: number;
  failingSince: Date | null;
  lastSuccessAt: Date | null;
  disabledReason: string | null;
};

export function pluginRow(plugin: Plugin, viewer: PluginViewer): PluginRow {
  const access = pluginConfigAccess((scope) => viewer.scopes.has(scope));
  const config = visiblePluginConfig(plugin.pluginType, plugin.config, access);
  const type = pluginTypeOf(plugin.pluginType);
  // A redacted URL reads as cut: `https://hooks.slack.com/…`.
  const shown = { ...config };
  if (access === 'redacted')
    for (const field of type?.redacted.origin ?? [])
      if (field in shown) shown[field] = maskedUrl(shown[field] as string | null);
  return {
    id: plugin.id,
    name: plugin.name,
    pluginType: plugin.pluginType,
    typeLabel: type?.label ?? plugin.pluginType,
    signs: type?.signs ?? false,
    deliversTo: type ? type.summary(shown) : '',
    config: shown,
    enabled: plugin.enabled,
    consecutiveFailures: plugin.consecutiveFailures,
    failingSince: plugin.failingSince ?? null,
    lastSuccessAt: plugin.lastSuccessAt ?? null,
    disabledReason: plugin.disabledReason ?? null,
  };
}
