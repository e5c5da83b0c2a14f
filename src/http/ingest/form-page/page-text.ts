import escapeHtml from 'escape-html';
import type { FormPage } from '../../../domain/forms/form-fields';
import type { ClosedReason, FormLimits } from '../../../domain/forms/form-limits';
import { CATALOGUE, translate, type MessageKey, type MessageValues } from '../../../i18n/catalogue';
import { DEFAULT_LANGUAGE, supportedLanguage, type Language } from '../../../i18n/languages';

/** The language a hosted page is in: its `language`, English for pages stored before it. */
export const pageLanguage = (page: FormPage): Language =>
  supportedLanguage(page.language ?? '') ?? DEFAULT_LANGUAGE;

/** A message of the catalogue as escaped markup. */
export const textIn = (language: Language, key: MessageKey, values?: MessageValues): string =>
  escapeHtml(translate(language, key, values));

/**
 * A message with markup in some placeholders (`html`, already escaped): the message and its
 * text values are escaped, then each markup placeholder is put in its place. The marks stand
 * in Unicode's private use area, which no message holds.
 */
export function htmlIn(
  language: Language,
  key: MessageKey,
  html: Record<string, string>,
  values: MessageValues = {},
): string {
  const names = Object.keys(html);
  const marks = Object.fromEntries(names.map((name, i) => [name, `\uE000${i}\uE001`]));
  const text = escapeHtml(translate(language, key, { ...values, ...marks }));
  return text.replace(/\uE000(\d+)\uE001/g, (mark, i: string) => {
    const name = names[Number(i)];
    return name === undefined ? mark : html[name]!;
  });
}

/**
 * The page's button: its `submit_label`, or the default in the page's language when it is
 * the English default (`Send`) the API and the dashboard fill in.
 */
export const submitLabelOf = (page: FormPage, language: Language): string =>
  page.submit_label === CATALOGUE.en['page.submit']
    ? translate(language, 'page.submit')
    : page.submit_label;

/** The thank-you text: the `success_message`, or the default in the page's language likewise. */
export const successMessageOf = (page: FormPage, language: Language): string =>
  page.success_message === CATALOGUE.en['thanks.default']
    ? translate(language, 'thanks.default')
    : page.success_message;

/** A moment in the language's words, in UTC (the messages that show one say so). */
export const dateTimeIn = (moment: string | Date, language: Language): string =>
  new Intl.DateTimeFormat(language, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(new Date(moment));

/** What a closed form's page says: the owner's `closed_message`, else ours for the reason. */
export function closedMessageOf(
  limits: Pick<FormLimits, 'closed_message' | 'opens_at'> | null | undefined,
  reason: ClosedReason,
  language: Language,
): string {
  if (limits?.closed_message) return limits.closed_message;
  if (reason === 'not_open_yet' && limits?.opens_at)
    return translate(language, 'closed.not_open_yet', {
      opens_at: dateTimeIn(limits.opens_at, language),
    });
  return translate(language, reason === 'full' ? 'closed.full' : 'closed.closed');
}
