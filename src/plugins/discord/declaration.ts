import { chatType } from '../chat/chat-type';
import { discordMessage } from './discord-message';

/** The submission as an embed, mentions off (discord-message.ts); Discord answers 204. */
export const discordType = chatType({
  key: 'discord',
  label: 'Discord',
  urlLabel: 'Discord webhook',
  placeholder: 'https://discord.com/api/webhooks/…',
  message: discordMessage,
});
