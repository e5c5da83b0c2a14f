import { z } from 'zod';
import { definePluginType, type PluginTypeDeclaration } from '../plugin-type';
import type { DeliverAttempt, PluginDeliveryDeps } from '../delivery/attempt';
import { sendWithHeartbeat } from '../delivery/heartbeat-send';
import { checkUrlConfig, hostOf } from '../manage/url-policy';
import type { ChatSource } from './chat-text';

/** A chat type's stored config: the incoming-webhook URL. */
const chatConfig = z.object({ url: z.string() });
type ChatConfig = z.output<typeof chatConfig>;

/**
 * One attempt of a chat plugin (Slack, Discord): the message built from the submission now,
 * POSTed as JSON to the plugin's incoming-webhook URL through the guarded sender. A 429's
 * `Retry-After` sets the next retry's delay.
 */
function chatDelivery(message: (source: ChatSource) => unknown) {
  return (deps: PluginDeliveryDeps): DeliverAttempt<ChatConfig> =>
    async ({ config, source }) => {
      const result = await sendWithHeartbeat(deps.sender, {
        url: config.url,
        body: JSON.stringify(message(source)),
        headers: { 'content-type': 'application/json', 'user-agent': 'Formward-Webhooks/1' },
      });
      return {
        result,
        permanent: result.failure === 'blocked_address',
        delivered: 'message delivered',
      };
    };
}

/** Slack and Discord: an incoming-webhook URL, itself the secret, checked like a webhook's. */
export function chatType(chat: {
  key: 'slack' | 'discord';
  label: string;
  /** What the add form calls the URL: `Slack incoming-webhook`. */
  urlLabel: string;
  placeholder: string;
  message: (source: ChatSource) => unknown;
}): PluginTypeDeclaration {
  const { key, label } = chat;
  return definePluginType<ChatConfig>({
    key,
    label,
    noun: `a ${label} channel`,
    createdThrough: 'dashboard',
    signs: false,
    fields: [
      {
        name: 'url',
        label: `${chat.urlLabel} URL (https only)`,
        input: 'url',
        required: true,
        placeholder: chat.placeholder,
      },
    ],
    config: chatConfig,
    check: checkUrlConfig,
    sealed: [],
    redacted: { keep: [], origin: ['url'] },
    defaultName: (config) => `${label} channel at ${hostOf(config.url)}`,
    summary: (visible) => String(visible.url ?? '(hidden)'),
    delivery: chatDelivery(chat.message),
  });
}
