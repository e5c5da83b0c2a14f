import escapeHtml from 'escape-html';
import type { FormField, FormPage } from '../../../domain/forms/form-fields';
import { captchaEmbedLines, type CaptchaWidget } from '../captcha-widget';
import { FILL_STAMP_SCRIPT } from '../../forms/embed-html';
import type { Language } from '../../../i18n/languages';
import { errorSummary, type PageProblem } from './error-summary';
import { fieldMarkup } from './field-markup';
import { pageDocument, textParagraphs, type PageChrome } from './page-document';
import { htmlIn, pageLanguage, submitLabelOf, textIn } from './page-text';

export type FormPageView = {
  page: FormPage;
  fields: FormField[];
  /** Where the page lives, same-origin: the form posts here (docs/form-pages.md). */
  base: string;
  captcha: CaptchaWidget | null;
  /** By field name: posted values shown again, or a hidden field's value from the query. */
  values: Record<string, string[]>;
  /** Set when a post was refused: the page is shown again with it. */
  problem: PageProblem | null;
  /** The refused post carried files, which are never kept. */
  hadFiles: boolean;
  chrome: PageChrome;
};

/**
 * A form's hosted page (docs/form-pages.md): its title and description, the fields with
 * their labels, help and errors, the CAPTCHA widget before any file input (ingest checks it
 * before it writes a file), the `_hp` honeypot, the `_ts` page-load stamp, and the submit
 * button. It works without JavaScript: a plain POST, answered with the page again on errors.
 */
export function formPage(view: FormPageView): string {
  const { page, fields, problem } = view;
  const language = pageLanguage(page);
  const firstInvalid = problem
    ? fields.findIndex((f) => f.type !== 'hidden' && problem.fieldErrors[f.name] !== undefined)
    : -1;
  const markup = (field: FormField) => {
    const index = fields.indexOf(field);
    return fieldMarkup(field, index, {
      values: view.values[field.name] ?? [],
      error: problem?.fieldErrors[field.name] ?? null,
      autofocus: index === firstInvalid,
      filesDropped: problem !== null,
      language,
    });
  };
  const anyRequired = fields.some((f) => f.required && f.type !== 'hidden');
  const hasFiles = fields.some((f) => f.type === 'file');
  const captcha = captchaEmbedLines(view.captcha);
  const content = [
    `<h1>${escapeHtml(page.title)}</h1>`,
    page.description ? `<div class="description">${textParagraphs(page.description)}</div>` : '',
    problem ? errorSummary(problem, fields, view.hadFiles, language) : '',
    anyRequired ? `<p class="required-note">${requiredNote(language)}</p>` : '',
    `<form method="post" action="${escapeHtml(view.base)}"${hasFiles ? ' enctype="multipart/form-data"' : ''} accept-charset="UTF-8">`,
    ...fields.filter((f) => f.type !== 'file').map(markup),
    // Browsers send fields in page order: the widget's answer arrives before any file.
    captcha.length > 0 ? `<div class="captcha">${captcha.join('\n')}</div>` : '',
    ...fields.filter((f) => f.type === 'file').map(markup),
    `<div class="hp" aria-hidden="true"><label>${textIn(language, 'page.honeypot')} <input type="text" name="_hp" value="" tabindex="-1" autocomplete="off"></label></div>`,
    '<input type="hidden" name="_ts" value="">',
    FILL_STAMP_SCRIPT,
    `<button type="submit">${escapeHtml(submitLabelOf(page, language))}</button>`,
    '</form>',
  ];
  return pageDocument(page, content.filter(Boolean).join('\n'), view.chrome, problem !== null);
}

/** "Fields marked * are required.": the asterisk is seen, its name is read out. */
const requiredNote = (language: Language) =>
  htmlIn(language, 'page.required_note', {
    asterisk:
      '<span class="req" aria-hidden="true">*</span>' +
      `<span class="visually-hidden">${textIn(language, 'page.required_asterisk')}</span>`,
  });
