import type { Form, Plugin } from '../../domain/entities';

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

/** The config fields a page shows: the URL (webhook, Slack, Discord), an e-mail's subject and recipients. */
export type PluginConfigView = { url?: unknown; subject?: unknown; recipients?: unknown };

export type PluginRow = {
  id: string;
  name: string;
  pluginType: string;
  enabled: boolean;
  config: PluginConfigView;
  consecutiveFailures: number;
  failingSince: Date | null;
  lastSuccessAt: Date | null;
  disabledReason: string | null;
};

export function pluginRow(plugin: Plugin): PluginRow {
  const { url, subject, recipients } = plugin.config;
  const config: PluginConfigView = {};
  if (url !== undefined) config.url = url;
  if (subject !== undefined) config.subject = subject;
  if (recipients !== undefined) config.recipients = recipients;
  return {
    id: plugin.id,
    name: plugin.name,
    pluginType: plugin.pluginType,
    enabled: plugin.enabled,
    config,
    consecutiveFailures: plugin.consecutiveFailures,
    failingSince: plugin.failingSince ?? null,
    lastSuccessAt: plugin.lastSuccessAt ?? null,
    disabledReason: plugin.disabledReason ?? null,
  };
}
