import escapeHtml from 'escape-html';
import { z } from 'zod';
import type { FormField, FormPage } from '../../domain/forms/form-fields';
import type { ManagedSubmission } from '../../domain/manage/managed-submission';
import { editOpen } from '../../domain/manage/submission-edits';
import { deleteOpen } from '../../domain/manage/submitter-deletion';
import { dateTime, idString } from '../kit/answers/fields';
import { pageDocument, type PageChrome } from '../ingest/form-page/page-document';
import { dateTimeIn, pageLanguage, textIn } from '../ingest/form-page/page-text';
import { translate } from '../../i18n/catalogue';
import { DEFAULT_LANGUAGE, type Language } from '../../i18n/languages';

/** What a manage link shows as JSON (`Accept: application/json`; docs/manage-links.md). */
export const managedSubmissionSchema = z
  .object({
    submission: z.object({
      id: idString('the submission'),
      form_id: idString('its form'),
      received_at: dateTime('when it was first received'),
      version: z
        .number()
        .int()
        .min(1)
        .describe('the version shown: 1 as received, one more for each edit made current'),
      values: z
        .record(z.string(), z.unknown())
        .describe('the stored fields, as the form owner sees them (files by name and size)'),
      can_edit: z.boolean().describe('whether the link may change it now'),
      can_delete: z.boolean().describe('whether the link may delete it now'),
      edit_until: dateTime('until when it may be changed or deleted; null: no end').nullable(),
    }),
  })
  .meta({ id: 'ManagedSubmission' });

/** A stored file as the submitter sees it: its name and size (the URL is the owner's). */
const withoutFileUrls = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutFileUrls);
  if (typeof value === 'object' && value !== null && 'url' in value && 'filename' in value) {
    const { url: _url, ...rest } = value as Record<string, unknown>;
    return rest;
  }
  return value;
};

/** The stored values a submitter may see: all of them, file entries without their URL. */
export const submitterValues = (payload: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(payload).map(([name, value]) => [name, withoutFileUrls(value)]),
  );

export function managedSubmissionView(opened: ManagedSubmission) {
  const { row, deadline } = opened;
  return {
    submission: {
      id: row.id,
      form_id: row.form_id,
      received_at: new Date(row.created_at).toISOString(),
      version: row.version,
      values: submitterValues(row.payload_json),
      can_edit: editOpen(opened),
      can_delete: deleteOpen(opened),
      edit_until: opened.editable && deadline ? deadline.toISOString() : null,
    },
  };
}

/**
 * The page a manage link's pages wear: the form's hosted page, in its language, or a plain
 * English one named after the form.
 */
export const managePageOf = (row: { page: FormPage | null; form_name: string }): FormPage =>
  row.page ?? {
    title: row.form_name,
    description: null,
    submit_label: translate(DEFAULT_LANGUAGE, 'manage.edit_submit'),
    success_message: translate(DEFAULT_LANGUAGE, 'manage.edit_saved'),
    accent_color: null,
  };

/** One stored value as text: lists joined, files by name, anything else as JSON. */
function valueText(value: unknown, language: Language): string {
  if (value === null || value === undefined || value === '')
    return translate(language, 'manage.no_value');
  if (Array.isArray(value)) return value.map((v) => valueText(v, language)).join(', ');
  if (typeof value === 'object') {
    const file = value as { filename?: unknown; size?: unknown };
    if (typeof file.filename === 'string')
      return translate(language, 'manage.file_value', {
        filename: file.filename,
        size: Number(file.size),
      });
    return JSON.stringify(value);
  }
  return String(value);
}

/** The stored values as a list of label and value, labels from the form's fields. */
function valuesList(
  payload: Record<string, unknown>,
  fields: FormField[] | null,
  language: Language,
): string {
  const labelOf = (name: string) => fields?.find((f) => f.name === name)?.label ?? name;
  const names = [
    ...(fields ?? []).map((f) => f.name).filter((name) => name in payload),
    ...Object.keys(payload).filter((name) => !fields?.some((f) => f.name === name)),
  ];
  const items = names.map((name) => {
    const text = escapeHtml(valueText(payload[name], language)).replace(/\r?\n/g, '<br>');
    return `<dt>${escapeHtml(labelOf(name))}</dt><dd>${text}</dd>`;
  });
  return `<dl class="stored">${items.join('\n')}</dl>`;
}

/**
 * The manage link's page (docs/manage-links.md): what was stored, every value escaped (they
 * are whatever was posted), with links to change or delete it while that is allowed.
 */
export function managedSubmissionPage(
  opened: ManagedSubmission,
  base: string,
  chrome: PageChrome,
  notice: string | null,
): string {
  const { row, deadline } = opened;
  const page = managePageOf(row);
  const language = pageLanguage(page);
  const received = dateTimeIn(new Date(row.created_at), language);
  const window =
    opened.editable && deadline
      ? `<p class="hint">${
          editOpen(opened)
            ? textIn(language, 'manage.edit_until', {
                edit_until: dateTimeIn(deadline, language),
              })
            : textIn(language, 'manage.edit_closed')
        }</p>`
      : '';
  const actions = [
    editOpen(opened)
      ? `<a href="${escapeHtml(`${base}/edit`)}">${textIn(language, 'manage.edit_action')}</a>`
      : '',
    deleteOpen(opened)
      ? `<a href="${escapeHtml(`${base}/delete`)}">${textIn(language, 'manage.delete_action')}</a>`
      : '',
  ].filter(Boolean);
  const content = [
    `<h1>${escapeHtml(page.title)}</h1>`,
    notice ? `<div role="status" class="notice"><p>${escapeHtml(notice)}</p></div>` : '',
    `<h2>${textIn(language, 'manage.view_title')}</h2>`,
    `<p class="hint">${textIn(language, 'manage.received_at', { received_at: received })}; ${textIn(language, 'manage.version', { version: row.version })}</p>`,
    valuesList(row.payload_json, row.fields, language),
    window,
    actions.length > 0 ? `<p class="actions">${actions.join(' · ')}</p>` : '',
  ];
  return pageDocument(page, content.filter(Boolean).join('\n'), chrome);
}

/** A page of the manage link with a title and a message only (deleted, closed, not found). */
export function manageMessagePage(
  page: FormPage,
  title: string,
  body: string,
  chrome: PageChrome,
): string {
  const content = `<div class="closed">
<h1>${escapeHtml(title)}</h1>
<div role="status"><p>${escapeHtml(body)}</p></div>
</div>`;
  return pageDocument(page, content, chrome);
}

/** The confirmation before a delete: a form posting to `{base}/delete`, and a way back. */
export function deleteConfirmPage(page: FormPage, base: string, chrome: PageChrome): string {
  const language = pageLanguage(page);
  const content = `<h1>${textIn(language, 'manage.delete_title')}</h1>
<p>${textIn(language, 'manage.delete_body')}</p>
<form method="post" action="${escapeHtml(`${base}/delete`)}">
<button type="submit">${textIn(language, 'manage.delete_confirm')}</button>
</form>
<p><a href="${escapeHtml(base)}">${textIn(language, 'manage.delete_cancel')}</a></p>`;
  return pageDocument(page, content, chrome);
}
