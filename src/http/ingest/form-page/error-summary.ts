import escapeHtml from 'escape-html';
import type { FormField } from '../../../domain/forms/form-fields';
import { errorTargetId } from './field-markup';

/** Why a post was not accepted, as the page shows it again. */
export type PageProblem = {
  /** The refusal's code (`validation_failed`, `captcha_failed`, `rate_limited`, …). */
  code: string;
  message: string;
  /** The refusal's `errors` list, shown when no field takes them. */
  details: string[];
  /** By field name: shown beside each field and linked from the summary. */
  fieldErrors: Record<string, string>;
};

// What a person can do about a refusal, in place of the API's wording.
const MESSAGES: Record<string, string> = {
  captcha_failed: 'The anti-spam check did not pass. Complete it again, then send the form.',
  rate_limited:
    'Too many submissions came from your network just now. Wait a minute, then send the form again.',
  payload_too_large: 'The submission is too large. Send smaller files or shorter answers.',
  unavailable:
    'The service is briefly unavailable. Nothing was sent: wait a few seconds, then send the form again.',
};

/**
 * The box at the top of a page shown again: `role="alert"`, a heading, and for field errors
 * a link to each field's control. With no field error it takes the focus itself.
 */
export function errorSummary(
  problem: PageProblem,
  fields: FormField[],
  filesDropped: boolean,
): string {
  const items = Object.entries(problem.fieldErrors).map(([name, message]) => {
    const index = fields.findIndex((f) => f.name === name && f.type !== 'hidden');
    const text = `${escapeHtml(index >= 0 ? fields[index]!.label : name)}: ${escapeHtml(message)}`;
    return index >= 0
      ? `<li><a href="#${errorTargetId(fields[index]!, index)}">${text}</a></li>`
      : `<li>${text}</li>`;
  });
  const fieldProblem = items.length > 0;
  const intro = fieldProblem
    ? ''
    : `<p>${escapeHtml(MESSAGES[problem.code] ?? problem.message)}</p>` +
      (problem.details.length > 0
        ? `<ul>${problem.details.map((d) => `<li>${escapeHtml(d)}</li>`).join('')}</ul>`
        : '');
  const files = filesDropped ? '<p>Files you chose were not kept: choose them again.</p>' : '';
  // Without a field to focus, the summary takes the focus so it is read first.
  const focus = fieldProblem ? '' : ' tabindex="-1" autofocus';
  return `<div class="error-summary" role="alert" aria-labelledby="error-summary-title"${focus}>
<h2 id="error-summary-title">${fieldProblem ? 'There is a problem' : 'Your answers were not sent'}</h2>
${intro}${fieldProblem ? `<ul>${items.join('')}</ul>` : ''}${files}
</div>`;
}
