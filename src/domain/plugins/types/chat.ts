import type { PluginTypeDeclaration } from '../plugin-type';
import { checkUrlConfig, hostOf } from './webhook';

/** Slack and Discord: an incoming-webhook URL, itself the secret, checked like a webhook's. */
function chatType(
  key: 'slack' | 'discord',
  label: string,
  placeholder: string,
): PluginTypeDeclaration {
  return {
    key,
    label,
    noun: `a ${label} channel`,
    createdThrough: 'dashboard',
    signs: false,
    fields: [
      {
        name: 'url',
        label: `${key === 'slack' ? 'Slack incoming-webhook' : 'Discord webhook'} URL (https only)`,
        input: 'url',
        required: true,
        placeholder,
      },
    ],
    check: checkUrlConfig,
    sealed: [],
    redacted: { keep: [], origin: ['url'] },
    defaultName: (config) => `${label} channel at ${hostOf(config.url)}`,
    summary: (visible) => String(visible.url ?? '(hidden)'),
  };
}

/** The submission as Block Kit (src/domain/chat/slack-message.ts). */
export const slackType = chatType('slack', 'Slack', 'https://hooks.slack.com/services/…');

/** The submission as an embed, mentions off (src/domain/chat/discord-message.ts). */
export const discordType = chatType('discord', 'Discord', 'https://discord.com/api/webhooks/…');
