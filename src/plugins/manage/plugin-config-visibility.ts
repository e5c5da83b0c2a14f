import type { Scope } from '../../domain/accounts/scopes';
import { mapSecrets, SECRET_MASK } from './plugin-secrets';
import { pluginTypeOf } from '../registry';

/*
 * What of a plugin's config a member or key may see (docs/teams.md). Webhook, Slack and
 * Discord URLs are capability URLs: whoever holds one can post into the channel or receiver,
 * and it keeps working after a viewer leaves the account. So only those who may manage
 * plugins (owners, admins, keys with `can_create_forms`) see them in full; everyone else sees
 * the scheme and host. Every page and API answer that shows a plugin asks this file.
 */

/** The scope that manages plugins, and so sees their URLs in full. */
export const SEES_PLUGIN_SECRETS: Scope = 'can_create_forms';

/** `full`: the config as stored; `redacted`: no URL path, token or header. */
export type PluginConfigAccess = 'full' | 'redacted';

export function pluginConfigAccess(holds: (scope: Scope) => boolean): PluginConfigAccess {
  return holds(SEES_PLUGIN_SECRETS) ? 'full' : 'redacted';
}

/**
 * A plugin's config as `access` may see it (its type's declaration says which fields are
 * secrets and what a redacted reader keeps): sealed fields are masked for everyone, a
 * redacted capability URL is its scheme and host only, and any other field is dropped.
 */
export function visiblePluginConfig(
  pluginType: string,
  config: Record<string, unknown>,
  access: PluginConfigAccess,
): Record<string, unknown> {
  const type = pluginTypeOf(pluginType);
  if (!type) return {};
  if (access === 'full') {
    const shown = mapSecrets(type, config, () => SECRET_MASK);
    for (const field of type.sealed) if (shown[field] !== undefined) shown[field] = SECRET_MASK;
    return shown;
  }
  const visible: Record<string, unknown> = {};
  for (const field of type.redacted.keep)
    if (config[field] !== undefined) visible[field] = config[field];
  for (const field of type.redacted.origin)
    if (config[field] !== undefined) visible[field] = urlOrigin(config[field]);
  return visible;
}

/** `https://host` of a URL, null when it is none (nothing of it is shown then). */
function urlOrigin(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return null;
  }
}

/** What a page shows of a redacted URL: `https://hooks.slack.com/…`, so it reads as cut. */
export function maskedUrl(origin: string | null): string {
  return origin ? `${origin}/…` : '(hidden)';
}

const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>]+/gi;

/**
 * A delivery's error or stored answer as a redacted reader sees it: any URL in it (a redirect's
 * `Location`, a receiver echoing its own address) cut to its scheme and host.
 */
export function redactUrlsInText(text: string | null, access: PluginConfigAccess): string | null {
  if (text === null || access === 'full') return text;
  return text.replace(URL_IN_TEXT, (url) => maskedUrl(urlOrigin(url)));
}

/** A delivery attempt as `access` may see it: URLs in its error and stored answer cut. */
export function visibleAttempt<T extends { error: string | null; response_body: string | null }>(
  row: T,
  access: PluginConfigAccess,
): T {
  if (access === 'full') return row;
  return {
    ...row,
    error: redactUrlsInText(row.error, access),
    response_body: redactUrlsInText(row.response_body, access),
  };
}
