import type { FlashCode } from '../kit/session/flash';
import { pluginTypeOf } from '../../plugins/registry';

/*
 * What the audit log and the flash call a change of a plugin. Webhooks keep the names they had
 * before every type shared one set of pages (`webhook.created`, `webhook.secret_rotated`: the
 * API records those too, and people filter their log by them); every other type is a
 * `plugin`. A naming, not a capability: what a type can do is in its declaration
 * (src/plugins/registry.ts).
 */

export type PluginChange = 'created' | 'enabled' | 'disabled' | 'deleted' | 'secret_rotated';

const nounOf = (pluginType: string) => pluginTypeOf(pluginType)?.changeNoun ?? 'plugin';

/** The audit action: `webhook.enabled` for a webhook, `plugin.enabled` for a Slack plugin. */
export const pluginAuditAction = (pluginType: string, change: PluginChange) =>
  `${nounOf(pluginType)}.${change}`;

/** The flash shown after enabling, disabling or deleting: `webhook_disabled`, `plugin_disabled`. */
export const pluginFlash = (
  pluginType: string,
  change: 'enabled' | 'disabled' | 'deleted',
): FlashCode => `${nounOf(pluginType)}_${change}`;
