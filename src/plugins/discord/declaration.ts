import { chatType } from '../chat/chat-type';

/** The submission as an embed, mentions off (src/plugins/discord/discord-message.ts). */
export const discordType = chatType('discord', 'Discord', 'https://discord.com/api/webhooks/…');
