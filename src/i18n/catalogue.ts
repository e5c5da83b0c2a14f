import { IntlMessageFormat } from 'intl-messageformat';
import type { Language } from './languages';
import { ar } from './messages/ar';
import { de } from './messages/de';
import { en, type MessageKey, type Messages } from './messages/en';
import { es } from './messages/es';
import { fr } from './messages/fr';
import { he } from './messages/he';
import { it } from './messages/it';
import { ja } from './messages/ja';
import { nl } from './messages/nl';
import { pl } from './messages/pl';
import { pt } from './messages/pt';
import { zhHans } from './messages/zh-Hans';

export type { MessageKey, Messages } from './messages/en';

/** Every language's messages (docs/languages.md): one file a language in `messages/`. */
export const CATALOGUE: Record<Language, Messages> = {
  en,
  de,
  fr,
  es,
  it,
  nl,
  pt,
  pl,
  ar,
  he,
  ja,
  'zh-Hans': zhHans,
};

/** What a message's placeholders are filled with. */
export type MessageValues = Record<string, string | number>;

/**
 * Parsed messages by language and key: a message is parsed once per process, the first time
 * a page needs it (pages are rendered per request when not cached), never per call.
 */
const formatters = new Map<string, IntlMessageFormat>();

/** The parsed message of `key` in `language` (parsed on first use, then kept). */
export function messageFormat(language: Language, key: MessageKey): IntlMessageFormat {
  const id = `${language}\n${key}`;
  let formatter = formatters.get(id);
  if (!formatter) {
    formatter = new IntlMessageFormat(CATALOGUE[language][key], language);
    formatters.set(id, formatter);
  }
  return formatter;
}

/** The message `key` in `language`, its placeholders filled with `values`. Plain text. */
export function translate(language: Language, key: MessageKey, values?: MessageValues): string {
  return String(messageFormat(language, key).format(values));
}
