import { z } from 'zod';
import {
  AA_TEXT_CONTRAST,
  contrastRatio,
  darkenedToContrast,
} from '../../domain/forms/color-contrast';
import { pageBudgetProblem } from '../../domain/forms/definition-budget';
import { text } from '../kit/answers/text';
import { CATALOGUE } from '../../i18n/catalogue';
import { DEFAULT_LANGUAGE, LANGUAGES, supportedLanguage } from '../../i18n/languages';

const HEX_COLOR = /^#[0-9a-f]{6}$/;

/**
 * The page's buttons are white text on the accent colour, and its links and focus rings the
 * accent on white: a colour below WCAG AA against white is refused with a darker suggestion.
 */
const accentColor = text()
  .trim()
  .toLowerCase()
  .refine((value) => HEX_COLOR.test(value), 'must be a colour as #rrggbb')
  .superRefine((value, ctx) => {
    if (!HEX_COLOR.test(value)) return;
    const ratio = contrastRatio(value, '#ffffff');
    if (ratio < AA_TEXT_CONTRAST)
      ctx.addIssue({
        code: 'custom',
        message:
          `contrast with white is ${ratio.toFixed(2)}:1, below the ${AA_TEXT_CONTRAST}:1 that WCAG 2.2 AA ` +
          `needs for the page's button text; ${darkenedToContrast(value)} is the same hue dark enough`,
      });
  });

/** A language of the supported set (docs/languages.md), any case in, its canonical tag out. */
const pageLanguage = text()
  .trim()
  .overwrite((value) => supportedLanguage(value) ?? value)
  .refine(
    (value) => supportedLanguage(value) !== null,
    `must be one of the supported languages: ${LANGUAGES.join(', ')}`,
  );

/**
 * A page with every text valid, before its byte budget: how a stored page is answered (a page
 * stored before the budget existed may be over it).
 */
export const storedFormPage = z.strictObject({
  title: text().trim().min(1, 'must not be empty').max(200).describe('the heading of the page'),
  description: text()
    .trim()
    .max(5000)
    .nullable()
    .default(null)
    .describe('plain text under the heading; blank lines separate paragraphs'),
  submit_label: text()
    .trim()
    .min(1, 'must not be empty')
    .max(60)
    .default(CATALOGUE.en['page.submit'])
    .describe("the button; the default is shown in the page's language"),
  success_message: text()
    .trim()
    .min(1, 'must not be empty')
    .max(2000)
    .default(CATALOGUE.en['thanks.default'])
    .describe(
      "shown after a successful post, unless success_redirect_url is set; the default is shown in the page's language",
    ),
  accent_color: accentColor
    .nullable()
    .default(null)
    .describe('#rrggbb for buttons, links and focus rings; needs 4.5:1 against white'),
  language: pageLanguage
    .default(DEFAULT_LANGUAGE)
    .describe(
      `the language of the page's own texts and messages, a BCP 47 tag: one of ${LANGUAGES.join(', ')} (docs/languages.md)`,
    ),
});

/** A page as the API and the builder take it: valid texts within the definition's byte budget. */
export const formPageInput = storedFormPage
  .superRefine((page, ctx) => {
    // The definition's byte budget: the texts together, as the page would be stored.
    const problem = pageBudgetProblem(page);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({ id: 'FormPage' });
