import type { FormPage } from '../../domain/forms/form-fields';
import { formPageInput } from './form-page-schemas';
import type { DraftErrors } from './field-drafts';
import { CATALOGUE } from '../../i18n/catalogue';
import { DEFAULT_LANGUAGE } from '../../i18n/languages';

/** The page settings of the builder as typed (templates/form-page-settings.eta). */
export type PageDraft = {
  title: string;
  description: string;
  submit_label: string;
  success_message: string;
  accent_color: string;
  /** A tag of the supported set (docs/languages.md). */
  language: string;
};

/** What a form without a page starts from: the schema's defaults, shown so they can be changed. */
export const NEW_PAGE_DRAFT: PageDraft = {
  title: '',
  description: '',
  submit_label: CATALOGUE.en['page.submit'],
  success_message: CATALOGUE.en['thanks.default'],
  accent_color: '',
  language: DEFAULT_LANGUAGE,
};

export const pageDraftOf = (page: FormPage | null, formName: string): PageDraft =>
  page
    ? {
        title: page.title,
        description: page.description ?? '',
        submit_label: page.submit_label,
        success_message: page.success_message,
        accent_color: page.accent_color ?? '',
        language: page.language ?? DEFAULT_LANGUAGE,
      }
    : { ...NEW_PAGE_DRAFT, title: formName };

export function readPageDraft(body: Record<string, unknown>): PageDraft {
  const textOf = (name: keyof PageDraft) =>
    typeof body[name] === 'string' ? (body[name] as string) : '';
  return {
    title: textOf('title'),
    description: textOf('description'),
    submit_label: textOf('submit_label'),
    success_message: textOf('success_message'),
    accent_color: textOf('accent_color'),
    language: textOf('language'),
  };
}

/**
 * The draft checked with the API's `formPageInput` (its WCAG contrast check included): an
 * empty description or colour is none, an empty submit label or success message the default.
 */
export function pageOfDraft(
  draft: PageDraft,
): { ok: true; page: FormPage } | { ok: false; errors: DraftErrors } {
  const body: Record<string, unknown> = { title: draft.title };
  body.description = draft.description.trim() === '' ? null : draft.description;
  body.accent_color = draft.accent_color.trim() === '' ? null : draft.accent_color;
  if (draft.submit_label.trim() !== '') body.submit_label = draft.submit_label;
  if (draft.success_message.trim() !== '') body.success_message = draft.success_message;
  if (draft.language.trim() !== '') body.language = draft.language;
  const parsed = formPageInput.safeParse(body);
  if (parsed.success) return { ok: true, page: parsed.data };
  const errors: DraftErrors = {};
  for (const issue of parsed.error.issues) {
    // A problem of the whole page is its byte budget: shown under the longest text's input.
    const key = typeof issue.path[0] === 'string' ? issue.path[0] : 'description';
    errors[key] ??= issue.path.length > 0 ? issue.message : `The page: ${issue.message}`;
  }
  return { ok: false, errors };
}
