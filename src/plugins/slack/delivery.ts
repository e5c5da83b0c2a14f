import type { Orm } from '../../db/orm';
import type { PluginHealthDeps } from '../manage/plugin-health';
import { slackMessage } from './slack-message';
import type { OutboundSender } from '../../outbound/sender';
import { deliverChatMessage } from '../delivery/plugin-attempt';
import type { DeliveryActivityOf } from '../../../workflows/activity-contracts';

/**
 * One attempt of a Slack plugin (docs/plugins.md): the submission as Block Kit to its
 * incoming-webhook URL, with the policy of workflows/delivery-kinds.ts. Slack answers 200
 * `ok`; a 429's `Retry-After` sets the next retry's delay.
 */
export function createSlackActivities(
  deps: PluginHealthDeps & { orm: Orm; sender: OutboundSender },
): DeliveryActivityOf<'deliverSlack'> {
  return {
    deliverSlack: (input) => deliverChatMessage(deps, input, 'slack', slackMessage),
  };
}
