import type { Form } from '../../domain/entities';
import { FIELD_TYPES, type FieldType, type FormField } from '../../domain/forms/form-fields';
import { type DraftErrors, EMPTY_FIELD_DRAFT, type FieldDraft, fieldDraftOf } from './field-drafts';
import { type PageDraft, pageDraftOf } from './page-drafts';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '../../i18n/languages';

/** What a person picks from, with the API's type in brackets. */
export const FIELD_TYPE_LABELS: Record<FieldType, string> = {
  text: 'Short text',
  email: 'E-mail address',
  textarea: 'Long text',
  number: 'Number',
  tel: 'Phone number',
  url: 'Web address',
  date: 'Date',
  select: 'Drop-down list',
  radio: 'One of several (radio buttons)',
  checkbox: 'Checkbox or checkbox group',
  file: 'File upload',
  hidden: 'Hidden value',
};

/** The builder's state for one answer: what the editors show, and the last action's result. */
export type BuilderState = {
  /** The name of the field the editor changes; null: the editor adds one. */
  editing: string | null;
  draft: FieldDraft;
  errors: DraftErrors;
  unknownFields: string;
  unknownError: string | null;
  page: PageDraft;
  pageErrors: DraftErrors;
  /** What the last action did (htmx answers only; a full page has the flash). */
  notice: string | null;
};

/** The data of templates/form-build.eta besides the section's. */
export type BuilderView = BuilderState & {
  fields: FormField[];
  types: { value: FieldType; label: string }[];
  /** The page's languages to choose from, each by its own name (docs/languages.md). */
  languages: { value: Language; label: string }[];
  hasPage: boolean;
  /** What the hosted page still needs; empty when it is served. */
  missing: string[];
  /** The accent colour as a swatch image (a data: URL the dashboard's CSP allows). */
  swatch: string | null;
};

/** The state of a page that shows the form as stored, the editor open on `editing` if it exists. */
export function storedBuilderState(form: Form, editing: string | null = null): BuilderState {
  const field = editing === null ? undefined : form.fields?.find((f) => f.name === editing);
  return {
    editing: field ? field.name : null,
    draft: field ? fieldDraftOf(field) : EMPTY_FIELD_DRAFT,
    errors: {},
    unknownFields: form.unknownFields,
    unknownError: null,
    page: pageDraftOf(form.page ?? null, form.name),
    pageErrors: {},
    notice: null,
  };
}

const swatchOf = (color: string | null | undefined) =>
  color && /^#[0-9a-f]{6}$/.test(color)
    ? `data:image/svg+xml,${encodeURIComponent(
        `<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><rect width="24" height="24" rx="4" fill="${color}"/></svg>`,
      )}`
    : null;

export function builderView(form: Form, state: BuilderState): BuilderView {
  const fields = form.fields ?? [];
  const missing = [
    ...(fields.length === 0 ? ['at least one field'] : []),
    ...(form.page ? [] : ['the page settings (title, submit label, success message)']),
  ];
  return {
    ...state,
    fields,
    types: FIELD_TYPES.map((value) => ({ value, label: FIELD_TYPE_LABELS[value] })),
    languages: LANGUAGES.map((value) => ({ value, label: LANGUAGE_NAMES[value] })),
    hasPage: form.page !== null && form.page !== undefined,
    missing,
    swatch: swatchOf(form.page?.accent_color),
  };
}
