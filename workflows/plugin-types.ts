// Pure: the plugin types Formward delivers to and the activity that makes one attempt of each.
// The domain's declarations (src/domain/plugins/registry.ts) and the worker's activities
// (activities/index.ts) are checked against this table by test/unit/plugins/registry.test.ts.

/**
 * Each type's delivery activity, by the name the worker registers and histories record. A new
 * type adds one line here, its policy in plugin-policies.ts and its declaration in the domain.
 */
export const DELIVERY_ACTIVITY = {
  webhook: 'deliverWebhook',
  email: 'deliverEmailPlugin',
  slack: 'deliverSlack',
  discord: 'deliverDiscord',
  teams: 'deliverTeams',
  telegram: 'deliverTelegram',
} as const;

export type PluginTypeKey = keyof typeof DELIVERY_ACTIVITY;
export type DeliveryActivityName = (typeof DELIVERY_ACTIVITY)[PluginTypeKey];

export const PLUGIN_TYPE_KEYS = Object.keys(DELIVERY_ACTIVITY) as PluginTypeKey[];

export function isPluginTypeKey(key: string): key is PluginTypeKey {
  return Object.prototype.hasOwnProperty.call(DELIVERY_ACTIVITY, key);
}
