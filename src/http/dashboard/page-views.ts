import type { Scope } from '../../domain/accounts/scopes';
import type { Form, Plugin } from '../../domain/entities';
import {
  maskedUrl,
  pluginConfigAccess,
  visiblePluginConfig,
} from '../../domain/plugins/plugin-config-visibility';

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

/**
 * The config fields a page shows: the URL (webhook, Slack, Discord; `https://host/…` for a
 * member who may not manage plugins), an e-mail's subject and recipients.
 */
export type PluginConfigView = { url?: unknown; subject?: unknown; recipients?: unknown };

/** Who is looking: the session's scopes decide what of a config they see. */
export type PluginViewer = { scopes: ReadonlySet<Scope> };

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

export function pluginRow(plugin: Plugin, viewer: PluginViewer): PluginRow {
  const access = pluginConfigAccess((scope) => viewer.scopes.has(scope));
  const { url, subject, recipients } = visiblePluginConfig(plugin.config, access);
  const config: PluginConfigView = {};
  if (url !== undefined) config.url = access === 'full' ? url : maskedUrl(url as string | null);
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
