import escapeHtml from 'escape-html';
import { z } from 'zod';
import type { FormField, FormPage } from '../../domain/forms/form-fields';
import type { ManagedSubmission } from '../../domain/manage/managed-submission';
import { editOpen } from '../../domain/manage/submission-edits';
import { deleteOpen } from '../../domain/manage/submitter-deletion';
import { dateTime, idString } from '../kit/answers/fields';
import { pageDocument, type PageChrome } from '../ingest/form-page/page-document';
import { MANAGE_TEXTS } from './manage-texts';

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

/** The page a manage link's pages wear: the form's hosted page, or a plain one named after it. */
export const managePageOf = (row: { page: FormPage | null; form_name: string }): FormPage =>
  row.page ?? {
    title: row.form_name,
    description: null,
    submit_label: MANAGE_TEXTS.editSubmit,
    success_message: MANAGE_TEXTS.editSaved,
    accent_color: null,
  };

/** One stored value as text: lists joined, files by name, anything else as JSON. */
function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return MANAGE_TEXTS.noValue;
  if (Array.isArray(value)) return value.map(valueText).join(', ');
  if (typeof value === 'object') {
    const file = value as { filename?: unknown; size?: unknown };
    if (typeof file.filename === 'string')
      return `${file.filename} (${MANAGE_TEXTS.fileValue}, ${String(file.size)} bytes)`;
    return JSON.stringify(value);
  }
  return String(value);
}

/** The stored values as a list of label and value, labels from the form's fields. */
function valuesList(payload: Record<string, unknown>, fields: FormField[] | null): string {
  const labelOf = (name: string) => fields?.find((f) => f.name === name)?.label ?? name;
  const names = [
    ...(fields ?? []).map((f) => f.name).filter((name) => name in payload),
    ...Object.keys(payload).filter((name) => !fields?.some((f) => f.name === name)),
  ];
  const items = names.map((name) => {
    const text = escapeHtml(valueText(payload[name])).replace(/\r?\n/g, '<br>');
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
  const received = new Date(row.created_at).toISOString();
  const window =
    opened.editable && deadline
      ? `<p class="hint">${escapeHtml(
          editOpen(opened)
            ? `${MANAGE_TEXTS.editUntil} ${deadline.toISOString()}.`
            : MANAGE_TEXTS.editClosed,
        )}</p>`
      : '';
  const actions = [
    editOpen(opened)
      ? `<a href="${escapeHtml(`${base}/edit`)}">${escapeHtml(MANAGE_TEXTS.editAction)}</a>`
      : '',
    deleteOpen(opened)
      ? `<a href="${escapeHtml(`${base}/delete`)}">${escapeHtml(MANAGE_TEXTS.deleteAction)}</a>`
      : '',
  ].filter(Boolean);
  const content = [
    `<h1>${escapeHtml(page.title)}</h1>`,
    notice ? `<div role="status" class="notice"><p>${escapeHtml(notice)}</p></div>` : '',
    `<h2>${escapeHtml(MANAGE_TEXTS.viewTitle)}</h2>`,
    `<p class="hint">${escapeHtml(MANAGE_TEXTS.receivedAt)}: ${escapeHtml(received)}; ${escapeHtml(MANAGE_TEXTS.versionLabel)} ${row.version}</p>`,
    valuesList(row.payload_json, row.fields),
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
  const content = `<h1>${escapeHtml(MANAGE_TEXTS.deleteTitle)}</h1>
<p>${escapeHtml(MANAGE_TEXTS.deleteBody)}</p>
<form method="post" action="${escapeHtml(`${base}/delete`)}">
<button type="submit">${escapeHtml(MANAGE_TEXTS.deleteConfirm)}</button>
</form>
<p><a href="${escapeHtml(base)}">${escapeHtml(MANAGE_TEXTS.deleteCancel)}</a></p>`;
  return pageDocument(page, content, chrome);
}
