import { completesBurst } from './burst';
import { filledTooFast } from './fill-time';
import { hasTooManyLinks } from './links';
import { findMarkup } from './markup';
import { findSpamPhrase } from './phrases';
import type { SpamReason } from './reasons';

// Every spam rule, in one table (docs/spam-rules.md): what ingest decides from the request,
// then what the submission workflow's first step decides from the stored submission. Ingest
// (src/domain/submissions/prepare-submission.ts, with the CAPTCHA's verdict as a fact) and
// the spam activity (activities/spam.ts) ask this file; none decides on its own.

export type ContentSignals = {
  /** The submitted text values (see submittedText). */
  texts: readonly string[];
  /** How long the form took to fill, or null when unknown. */
  fillMs: number | null;
};

/** What ingest knows: the honeypot, and a CAPTCHA its provider could not verify in time. */
export type IngestSignals = { honeypotFilled: boolean; captchaUnverified: boolean };

/** What the workflow knows: the content, and how many identical submissions came before. */
export type StoredSignals = ContentSignals & { identical: number };

type SignalsAt = { ingest: IngestSignals; workflow: StoredSignals };
type SpamStage = keyof SignalsAt;
type Rule<S extends SpamStage> = { reason: SpamReason; matches(signals: SignalsAt[S]): boolean };

/** The rules that need nothing but the submission itself, in the order they are tried. */
const CONTENT_RULES: readonly Rule<'workflow'>[] = [
  { reason: 'too_many_links', matches: (s) => hasTooManyLinks(s.texts) },
  { reason: 'spam_phrase', matches: (s) => findSpamPhrase(s.texts) !== null },
  { reason: 'markup', matches: (s) => findMarkup(s.texts) !== null },
  { reason: 'too_fast', matches: (s) => filledTooFast(s.fillMs) },
];

/** Each stage's rules in order; the first match is the reason. */
const SPAM_RULES: { readonly [S in SpamStage]: readonly Rule<S>[] } = {
  ingest: [
    { reason: 'honeypot', matches: (s) => s.honeypotFilled },
    { reason: 'captcha_unverified', matches: (s) => s.captchaUnverified },
  ],
  // The burst rule last: the only one that looks at other submissions.
  workflow: [...CONTENT_RULES, { reason: 'burst', matches: (s) => completesBurst(s.identical) }],
};

/** The reason of the first rule of `stage` that matches, or null when none does. */
export function spamReasonAt<S extends SpamStage>(
  stage: S,
  signals: SignalsAt[S],
): SpamReason | null {
  const rules: readonly Rule<S>[] = SPAM_RULES[stage];
  return rules.find((rule) => rule.matches(signals))?.reason ?? null;
}

/** The reason of the first content rule that matches, or null when the content looks clean. */
export function contentSpamReason(signals: ContentSignals): SpamReason | null {
  return CONTENT_RULES.find((rule) => rule.matches({ ...signals, identical: 0 }))?.reason ?? null;
}
