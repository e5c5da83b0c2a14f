/**
 * Phrases that (almost) only spam uses in a contact form, matched case-insensitively as
 * whole words, with a plural `s` allowed and any run of spaces, hyphens, underscores or dots
 * between the words (`SEO-services`, `crypto  investment`). Documented in docs/spam-rules.md;
 * keep the two in step.
 */
export const SPAM_PHRASES = [
  'casino',
  'viagra',
  'cialis',
  'online pharmacy',
  'crypto investment',
  'cryptocurrency investment',
  'bitcoin investment',
  'forex signal',
  'seo service',
  'backlink',
  'first page of google',
  'payday loan',
  'buy follower',
] as const;

const WORD_SEPARATOR = '[\\s._-]+';
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Letters or digits on either side mean the phrase is part of a longer word.
const PATTERNS = SPAM_PHRASES.map((phrase) => ({
  phrase,
  pattern: new RegExp(
    `(?<![\\p{L}\\p{N}])${phrase.split(' ').map(escapeRegExp).join(WORD_SEPARATOR)}s?(?![\\p{L}\\p{N}])`,
    'iu',
  ),
}));

/** The first listed phrase found in the texts, or null. */
export function findSpamPhrase(texts: readonly string[]): string | null {
  // NFKC folds look-alike forms such as fullwidth letters (`ｃａｓｉｎｏ`) to plain ones.
  const normalized = texts.map((text) => text.normalize('NFKC'));
  for (const { phrase, pattern } of PATTERNS) {
    if (normalized.some((text) => pattern.test(text))) return phrase;
  }
  return null;
}
