import { z } from 'zod';
import { definePluginType, schemaCheck } from '../plugin-type';
import { telegramDelivery } from './delivery';

/** A bot token as BotFather gives it: the bot's id, a colon, 35 characters. */
export const TELEGRAM_TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{35}$/;

/** A chat id: a number (negative for groups and channels) or a public `@channelname`. */
const CHAT_ID = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/;

export const telegramConfig = z.object({
  token: z
    .string('is required (the token BotFather gave, like 123456789:AA…)')
    .trim()
    .regex(
      TELEGRAM_TOKEN,
      'must be a bot token as BotFather gives it: 123456789:AA… (35 characters after the colon)',
    ),
  chat_id: z
    .string('is required (a number, or @channelname)')
    .trim()
    .regex(CHAT_ID, 'must be a chat id (a number, negative for groups) or @channelname'),
});

/**
 * Telegram: a bot posts one message per submission to a chat (core.telegram.org/bots/api).
 * The token is sealed and never shown again; the chat id grants nothing without it.
 */
export const telegramType = definePluginType<z.output<typeof telegramConfig>>({
  key: 'telegram',
  label: 'Telegram',
  noun: 'a Telegram chat',
  createdThrough: 'dashboard',
  signs: false,
  fields: [
    {
      name: 'token',
      label: 'Bot token',
      input: 'secret',
      required: true,
      placeholder: '123456789:AA…',
      hint: 'From @BotFather (/newbot). It is shown only once, here.',
    },
    {
      name: 'chat_id',
      label: 'Chat id',
      input: 'text',
      required: true,
      placeholder: '-1001234567890 or @channelname',
      hint: 'Add the bot to the group or channel first (as an administrator in a channel).',
    },
  ],
  config: z.object({ token: z.string(), chat_id: z.string() }),
  check: schemaCheck(telegramConfig),
  sealed: ['token'],
  redacted: { keep: ['chat_id'], origin: [] },
  defaultName: (config) => `Telegram chat ${config.chat_id}`,
  summary: (visible) => `Telegram chat ${String(visible.chat_id ?? '(hidden)')}`,
  delivery: telegramDelivery,
});
