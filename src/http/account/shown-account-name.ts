/** How much of an account's name an invitation shows. */
export const ACCOUNT_NAME_SHOWN = 60;

/** Control, zero-width and direction-changing characters: they could hide or reorder text. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]/g;

/**
 * An account's name as an invitation shows it to someone outside the account: whoever
 * invites chose it, so it is one line of plain text, short, and the page quotes it as theirs
 * (never a heading). Templates escape it.
 */
export function shownAccountName(name: string): string {
  const text = name.replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim();
  if (!text) return '(unnamed)';
  const chars = [...text];
  return chars.length > ACCOUNT_NAME_SHOWN
    ? `${chars.slice(0, ACCOUNT_NAME_SHOWN - 1).join('')}…`
    : text;
}
