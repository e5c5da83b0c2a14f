import { fieldText } from '../manage/plugin-configs';

/** What a chat message is made of: the submission, its form, and its fields in stored order. */
export type ChatSource = {
  submissionId: string;
  formName: string;
  createdAt: Date;
  payload: Record<string, unknown>;
};

const ELLIPSIS = '…';

/**
 * `raw` escaped with `escape`, cut so the escaped text has at most `limit` characters (UTF-16
 * units, never fewer than the services count), an ellipsis marking the cut. Cutting before
 * escaping keeps an escape sequence whole; huge values cost only `limit` characters of work.
 */
export function fitEscaped(raw: string, limit: number, escape: (text: string) => string): string {
  const whole = escape(raw);
  if (whole.length <= limit) return whole;
  // Escaping never shortens text: more than `limit` characters of `raw` cannot fit.
  let keep = Array.from(raw.slice(0, limit));
  let escaped = escape(keep.join(''));
  while (escaped.length > limit - ELLIPSIS.length && keep.length > 0) {
    const over = escaped.length - (limit - ELLIPSIS.length);
    keep = keep.slice(0, Math.max(0, keep.length - Math.max(1, Math.ceil(over / 6))));
    escaped = escape(keep.join(''));
  }
  return escaped + ELLIPSIS;
}

/** The submitted fields as name and one-line-or-more text, empty values shown as such. */
export function chatFields(
  payload: Record<string, unknown>,
): Array<{ name: string; value: string }> {
  return Object.entries(payload).map(([name, value]) => ({ name, value: fieldText(value) }));
}
