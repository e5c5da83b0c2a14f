// Pure: which activity delivers a plugin type and with what timeout and retry policy.
import { webhookActivityPolicy, type DeliveryPolicy } from './delivery-policy';
import {
  chatActivityPolicy,
  emailPluginActivityPolicy,
  type PluginActivityPolicy,
} from './plugin-policies';
import {
  DELIVERY_ACTIVITY,
  isPluginTypeKey,
  type DeliveryActivityName,
  type PluginTypeKey,
} from './plugin-types';

/** A plugin type's delivery: its activity and that activity's timeout and retry policy. */
export type DeliveryKind = { activity: DeliveryActivityName; policy: PluginActivityPolicy };

type PolicyOf = (webhook: DeliveryPolicy, test: boolean) => PluginActivityPolicy;

/** Each type's policy, from the WEBHOOK_* knobs and whether the run is a `?test=true` one. */
const ACTIVITY_POLICY: Record<PluginTypeKey, PolicyOf> = {
  webhook: webhookActivityPolicy,
  email: (_webhook, test) => emailPluginActivityPolicy(test),
  slack: chatActivityPolicy,
  discord: chatActivityPolicy,
  teams: chatActivityPolicy,
  telegram: chatActivityPolicy,
};

/**
 * The delivery of a planned plugin, or undefined when this worker has none for its type (a
 * type it does not know, or any type but webhook in a run from before the other types).
 */
export function deliveryKindOf(
  pluginType: string,
  webhook: DeliveryPolicy,
  test: boolean,
  typed: boolean,
): DeliveryKind | undefined {
  if (!isPluginTypeKey(pluginType) || (!typed && pluginType !== 'webhook')) return undefined;
  return {
    activity: DELIVERY_ACTIVITY[pluginType],
    policy: ACTIVITY_POLICY[pluginType](webhook, test),
  };
}
