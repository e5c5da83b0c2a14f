/**
 * A form's field list (docs/form-fields.md): what a hosted page shows and what ingest accepts.
 * `null` on a form means free-form, as before fields existed.
 */
export const FIELD_TYPES = [
  'text',
  'email',
  'textarea',
  'number',
  'tel',
  'url',
  'date',
  'select',
  'radio',
  'checkbox',
  'file',
  'hidden',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Types whose answer is one of `options` (a `checkbox` without options is a single box). */
export const CHOICE_TYPES: ReadonlySet<FieldType> = new Set(['select', 'radio', 'checkbox']);

export type FormField = {
  name: string;
  label: string;
  type: FieldType;
  required: boolean;
  placeholder?: string;
  help?: string;
  options?: string[];
  max_length?: number;
  min?: number;
  max?: number;
  /** `select` and `file`: more than one answer may come. A checkbox group always allows many. */
  multiple?: boolean;
  /** `file`: MIME types (`image/png`, `image/*`) or extensions (`.pdf`). */
  accept?: string[];
};

/** What happens to posted names that are not in `fields`. */
export const UNKNOWN_FIELD_POLICIES = ['keep', 'drop', 'reject'] as const;
export type UnknownFieldPolicy = (typeof UNKNOWN_FIELD_POLICIES)[number];

export const MAX_FIELDS = 100;
export const MAX_OPTIONS = 200;
/** The definition's byte budget (docs/form-fields.md, Limits): `fields` serialized as JSON, UTF-8. */
export const MAX_FIELDS_BYTES = 64 * 1024;
/** Options summed over every field of a list. */
export const MAX_OPTIONS_IN_ALL = 1000;
/** `page` serialized as JSON, UTF-8: all its texts together. */
export const MAX_PAGE_BYTES = 8 * 1024;

/** The page a form is served as (docs/form-pages.md); null: no page. */
export type FormPage = {
  title: string;
  /** Plain text; paragraphs split on blank lines. */
  description: string | null;
  submit_label: string;
  success_message: string;
  /** `#rrggbb`, readable against white at WCAG 2.2 AA. */
  accent_color: string | null;
  /** The page's language, a tag of src/i18n/languages.ts; absent on pages stored before it: en. */
  language?: string;
};

/** A field whose answer is a single checkbox: present (any non-empty value) or absent. */
export const isSingleCheckbox = (field: FormField) =>
  field.type === 'checkbox' && (field.options?.length ?? 0) === 0;
