/**
 * Markup that has no place in a plain form field: active HTML, links written as HTML or
 * BBCode (the forum-spam format), and inline event handlers. A tag only counts when a letter
 * follows `<` directly, as browsers parse it, so `a < b`, `I <3 it` or `<ada@example.com>` are
 * not markup. `[^<>]*` keeps every pattern linear in the text length.
 */
export const MARKUP_PATTERNS: readonly { what: string; pattern: RegExp }[] = [
  { what: '<script>', pattern: /<script\b/i },
  { what: '<iframe>', pattern: /<iframe\b/i },
  { what: '<object>', pattern: /<object\b/i },
  { what: '<embed>', pattern: /<embed\b/i },
  { what: '<a href>', pattern: /<a\s[^<>]*\bhref\s*=/i },
  { what: 'on*= event handler', pattern: /<[a-z][a-z0-9-]*\s[^<>]*\bon[a-z]+\s*=/i },
  { what: 'javascript: URL in a tag', pattern: /<[a-z][^<>]*\bjavascript\s*:/i },
  { what: '[url] BBCode', pattern: /\[url[=\]]/i },
  { what: '[link] BBCode', pattern: /\[link=/i },
  { what: '[img] BBCode', pattern: /\[img\]/i },
];

/** A description of the first markup found in the texts, or null. */
export function findMarkup(texts: readonly string[]): string | null {
  for (const { what, pattern } of MARKUP_PATTERNS) {
    if (texts.some((text) => pattern.test(text))) return what;
  }
  return null;
}
