import { filledTooFast } from './fill-time';
import { hasTooManyLinks } from './links';
import { findMarkup } from './markup';
import { findSpamPhrase } from './phrases';
import type { SpamReason } from './reasons';

export type ContentSignals = {
  /** The submitted text values (see submittedText). */
  texts: readonly string[];
  /** How long the form took to fill, or null when unknown. */
  fillMs: number | null;
};

/**
 * The rules that need nothing but the submission itself, in the order they are tried; the
 * first match is the reason. The burst rule needs the database and runs after these.
 */
const CONTENT_RULES: readonly { reason: SpamReason; matches(s: ContentSignals): boolean }[] = [
  { reason: 'too_many_links', matches: (s) => hasTooManyLinks(s.texts) },
  { reason: 'spam_phrase', matches: (s) => findSpamPhrase(s.texts) !== null },
  { reason: 'markup', matches: (s) => findMarkup(s.texts) !== null },
  { reason: 'too_fast', matches: (s) => filledTooFast(s.fillMs) },
];

/** The reason of the first content rule that matches, or null when the content looks clean. */
export function contentSpamReason(signals: ContentSignals): SpamReason | null {
  return CONTENT_RULES.find((rule) => rule.matches(signals))?.reason ?? null;
}
