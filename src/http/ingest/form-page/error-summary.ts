import escapeHtml from 'escape-html';
import type { FormField } from '../../../domain/forms/form-fields';
import type { MessageKey } from '../../../i18n/catalogue';
import type { Language } from '../../../i18n/languages';
import { errorTargetId } from './field-markup';
import { textIn } from './page-text';

/** Why a post was not accepted, as the page shows it again. */
export type PageProblem = {
  /** The refusal's code (`validation_failed`, `captcha_failed`, `rate_limited`, …). */
  code: string;
  message: string;
  /** The refusal's `errors` list, shown when no field takes them. */
  details: string[];
  /** By field name, in the page's language: shown beside each field and linked from the summary. */
  fieldErrors: Record<string, string>;
};

// What a person can do about a refusal, in place of the API's wording.
const MESSAGES: Record<string, MessageKey> = {
  captcha_failed: 'summary.captcha_failed',
  rate_limited: 'summary.rate_limited',
  payload_too_large: 'summary.payload_too_large',
  unavailable: 'summary.unavailable',
};

/**
 * Why a post no field explains was refused. In English: what a person can do about it (or
 * the API's message) and the refusal's lines, which say exactly what was refused; in another
 * language the same advice, or a general message, without the API's English lines.
 */
function refusalText(problem: PageProblem, language: Language): string {
  const known = MESSAGES[problem.code];
  if (language !== 'en') return `<p>${textIn(language, known ?? 'summary.other')}</p>`;
  const details = problem.details.map((d) => `<li>${escapeHtml(d)}</li>`).join('');
  const message = known ? textIn(language, known) : escapeHtml(problem.message);
  return `<p>${message}</p>` + (details ? `<ul>${details}</ul>` : '');
}

/**
 * The box at the top of a page shown again: `role="alert"`, a heading, and for field errors
 * a link to each field's control. With no field error it takes the focus itself.
 */
export function errorSummary(
  problem: PageProblem,
  fields: FormField[],
  filesDropped: boolean,
  language: Language,
): string {
  const items = Object.entries(problem.fieldErrors).map(([name, message]) => {
    const index = fields.findIndex((f) => f.name === name && f.type !== 'hidden');
    const label = index >= 0 ? fields[index]!.label : name;
    const text = textIn(language, 'summary.field_item', { label, message });
    return index >= 0
      ? `<li><a href="#${errorTargetId(fields[index]!, index)}">${text}</a></li>`
      : `<li>${text}</li>`;
  });
  const fieldProblem = items.length > 0;
  const intro = fieldProblem ? '' : refusalText(problem, language);
  const files = filesDropped ? `<p>${textIn(language, 'summary.files_dropped')}</p>` : '';
  // Without a field to focus, the summary takes the focus so it is read first.
  const focus = fieldProblem ? '' : ' tabindex="-1" autofocus';
  return `<div class="error-summary" role="alert" aria-labelledby="error-summary-title"${focus}>
<h2 id="error-summary-title">${textIn(language, fieldProblem ? 'summary.field_heading' : 'summary.other_heading')}</h2>
${intro}${fieldProblem ? `<ul>${items.join('')}</ul>` : ''}${files}
</div>`;
}
