import { chatFields, fitEscaped, type ChatSource } from '../chat/chat-text';

/*
 * A submission as one Telegram message in its HTML parse mode
 * (core.telegram.org/bots/api#html-style): our own tags for the layout, every submitted
 * name and value escaped, so `<b>`, `<a href>` and entities in a value arrive as text.
 */

/** Telegram's limit on a message's text (core.telegram.org/bots/api#sendmessage). */
export const TELEGRAM_TEXT_LIMIT = 4096;

/** What a field's name may take, so one long name does not crowd out the rest. */
const NAME_LIMIT = 200;

export type TelegramMessage = {
  chat_id: string;
  text: string;
  parse_mode: 'HTML';
  link_preview_options: { is_disabled: true };
};

/** The three characters Telegram's HTML mode reads; `&` first, so no escape is escaped twice. */
export function escapeTelegramHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

const escaped = (text: string, limit: number) => fitEscaped(text, limit, escapeTelegramHtml);

/**
 * The message's HTML: the form's name in bold, then each field (name in bold, value below),
 * and an italic last line with the submission id and time. The whole text, tags included,
 * stays within TELEGRAM_TEXT_LIMIT (Telegram counts less: the text without its tags): fields
 * are kept whole while they fit, the first that does not is cut on a character (never inside
 * an escape) when room is left, and the last line says how many were left out.
 */
export function telegramText(source: ChatSource): string {
  const title = `<b>${escaped(`New submission to ${source.formName}`, 300)}</b>`;
  const stamp = `Submission ${source.submissionId} · ${source.createdAt.toISOString()}`;
  // Room kept for the last line and its count of fields left out.
  let room = TELEGRAM_TEXT_LIMIT - title.length - stamp.length - 60;
  const parts: string[] = [];
  const all = chatFields(source.payload);
  for (const field of all) {
    const name = `<b>${escaped(field.name, NAME_LIMIT)}</b>\n`;
    const budget = room - name.length - 2; // the blank line before the field
    if (budget < 20) break;
    const value = escaped(field.value === '' ? '(empty)' : field.value, budget);
    parts.push(`${name}${value}`);
    room -= name.length + value.length + 2;
  }
  const hidden = all.length - parts.length;
  const footer = `<i>${escapeTelegramHtml(stamp)}${
    hidden > 0 ? ` · ${hidden} more field${hidden === 1 ? '' : 's'} not shown` : ''
  }</i>`;
  return [title, ...parts, footer].join('\n\n');
}

/** The `sendMessage` body for one submission, link previews off. */
export function telegramMessage(chatId: string, source: ChatSource): TelegramMessage {
  return {
    chat_id: chatId,
    text: telegramText(source),
    parse_mode: 'HTML',
    link_preview_options: { is_disabled: true },
  };
}
