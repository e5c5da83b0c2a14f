import type {
  APIEmbed,
  APIEmbedField,
  RESTPostAPIWebhookWithTokenJSONBody,
} from 'discord-api-types/v10';
import { chatFields, fitEscaped, type ChatSource } from '../chat/chat-text';

/** Discord's limits (discord.com/developers/docs/resources/message#embed-object-embed-limits). */
export const DISCORD_LIMITS = {
  content: 2000,
  title: 256,
  fieldName: 256,
  fieldValue: 1024,
  fields: 25,
  footer: 2048,
  /** Title, description, field names and values, footer and author, all embeds together. */
  embedTotal: 6000,
} as const;

export type DiscordMessage = RESTPostAPIWebhookWithTokenJSONBody & {
  content: string;
  embeds: APIEmbed[];
};

/**
 * Markdown and mention characters get a backslash, which Discord shows as the bare
 * character: `**`, masked links (`[x](url)`), headings, spoilers, code and `<@id>` in a value stay text.
 */
export function escapeDiscord(text: string): string {
  return text.replace(/[\\*_~`|<>#[\]@:!-]/g, '\\$&');
}

/**
 * One submission as a Discord webhook message: a short content line, and one embed with a
 * field per submitted field (escaped, cut to Discord's limits, at most 25, within the 6000
 * characters of an embed; the footer names what was left out). `allowed_mentions` with no
 * parse list: nothing in a message pings anyone, whatever it contains.
 */
export function discordMessage(source: ChatSource): DiscordMessage {
  const title = fitEscaped(
    `Submission ${source.submissionId}`,
    DISCORD_LIMITS.title,
    escapeDiscord,
  );
  const content = fitEscaped(
    `New submission to ${source.formName}`,
    DISCORD_LIMITS.content,
    escapeDiscord,
  );
  // Room kept for the footer, written last when its text is known.
  let budget = DISCORD_LIMITS.embedTotal - title.length - 120;
  const fields: APIEmbedField[] = [];
  const all = chatFields(source.payload);
  for (const field of all) {
    if (fields.length === DISCORD_LIMITS.fields || budget < 20) break;
    const name =
      fitEscaped(
        field.name,
        Math.min(DISCORD_LIMITS.fieldName, Math.floor(budget / 4)),
        escapeDiscord,
      ) || '\u200b';
    const value =
      fitEscaped(
        field.value === '' ? '(empty)' : field.value,
        Math.min(DISCORD_LIMITS.fieldValue, budget - name.length),
        escapeDiscord,
      ) || '\u200b';
    budget -= name.length + value.length;
    fields.push({ name, value });
  }
  const hidden = all.length - fields.length;
  const footer = `${source.createdAt.toISOString()}${
    hidden > 0 ? ` · ${hidden} more field${hidden === 1 ? '' : 's'} not shown` : ''
  }`;
  return {
    content,
    embeds: [
      { title, fields, footer: { text: footer }, timestamp: source.createdAt.toISOString() },
    ],
    allowed_mentions: { parse: [] },
  };
}
