import type { Orm } from '../../db/orm';
import type { PluginHealthDeps } from '../manage/plugin-health';
import { discordMessage } from './discord-message';
import type { OutboundSender } from '../../outbound/sender';
import { deliverChatMessage } from '../delivery/plugin-attempt';
import type { DeliveryActivityOf } from '../../../workflows/activity-contracts';

/**
 * One attempt of a Discord plugin (docs/plugins.md): the submission as an embed, mentions
 * disabled, to its webhook URL, with the policy of workflows/delivery-kinds.ts. Discord
 * answers 204; a 429's `Retry-After` sets the next retry's delay.
 */
export function createDiscordActivities(
  deps: PluginHealthDeps & { orm: Orm; sender: OutboundSender },
): DeliveryActivityOf<'deliverDiscord'> {
  return {
    deliverDiscord: (input) => deliverChatMessage(deps, input, 'discord', discordMessage),
  };
}
