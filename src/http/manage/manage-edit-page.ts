import type { FormField } from '../../domain/forms/form-fields';
import type { ManagedSubmission } from '../../domain/manage/managed-submission';
import { editableFields } from '../../domain/manage/submission-edits';
import type { PageProblem } from '../ingest/form-page/error-summary';
import { formPage } from '../ingest/form-page/form-page';
import type { PageChrome } from '../ingest/form-page/page-document';
import { pageLanguage } from '../ingest/form-page/page-text';
import { translate } from '../../i18n/catalogue';
import { managePageOf } from './manage-view';

/** A stored value as the page's inputs take it: a list of texts (files are never shown). */
function asTexts(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(asTexts);
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  return [];
}

/**
 * The fields the edit page shows: the form's, without file fields; for a free-form form, one
 * text input for each stored value that is text, named and labelled as stored.
 */
export function editPageFields(opened: ManagedSubmission): FormField[] {
  const fields = editableFields(opened.row.fields);
  if (fields) return fields;
  return Object.entries(opened.row.payload_json)
    .filter(([, value]) => asTexts(value).length > 0 && !Array.isArray(value))
    .map(([name, value]) => ({
      name,
      label: name,
      type: (String(value).length > 120 || String(value).includes('\n')
        ? 'textarea'
        : 'text') as FormField['type'],
      required: false,
    }));
}

/** The stored values by field name, as the edit page fills its inputs. */
export const storedValues = (payload: Record<string, unknown>): Record<string, string[]> =>
  Object.fromEntries(Object.entries(payload).map(([name, value]) => [name, asTexts(value)]));

/**
 * The edit page (docs/manage-links.md): the form's hosted page, filled with the stored values
 * (or with the refused post's, and its problem, when shown again), posting to the link. No
 * CAPTCHA: the link is the proof; the honeypot stays, as at ingest.
 */
export function editPage(
  opened: ManagedSubmission,
  base: string,
  chrome: PageChrome,
  shown: { values: Record<string, string[]>; problem: PageProblem | null },
): string {
  const page = managePageOf(opened.row);
  const language = pageLanguage(page);
  const hasFiles = opened.row.fields?.some((field) => field.type === 'file') ?? false;
  return formPage({
    page: {
      ...page,
      title: page.title,
      description: hasFiles ? translate(language, 'manage.edit_files_kept') : null,
      submit_label: translate(language, 'manage.edit_submit'),
    },
    fields: editPageFields(opened),
    base,
    captcha: null,
    values: shown.values,
    problem: shown.problem,
    hadFiles: false,
    chrome,
  });
}
