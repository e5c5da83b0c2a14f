import type { FormField } from '../../domain/forms/form-fields';

/**
 * The field editor of the builder (templates/form-field-editor.eta) as a person filled it in:
 * every input as typed, so a refused edit shows it again unchanged. Options and accepted
 * types are one a line; numbers are text until they are read.
 */
export type FieldDraft = {
  name: string;
  label: string;
  type: string;
  required: boolean;
  placeholder: string;
  help: string;
  options: string;
  max_length: string;
  min: string;
  max: string;
  multiple: boolean;
  accept: string;
};

/** A problem by editor input (`name`, `options`…), and `list` for the list as a whole. */
export type DraftErrors = Record<string, string>;

export const EMPTY_FIELD_DRAFT: FieldDraft = {
  name: '',
  label: '',
  type: 'text',
  required: false,
  placeholder: '',
  help: '',
  options: '',
  max_length: '',
  min: '',
  max: '',
  multiple: false,
  accept: '',
};

const asText = (value: number | undefined) => (value === undefined ? '' : String(value));

/** A stored field in the editor, to change it. */
export const fieldDraftOf = (field: FormField): FieldDraft => ({
  name: field.name,
  label: field.label,
  type: field.type,
  required: field.required,
  placeholder: field.placeholder ?? '',
  help: field.help ?? '',
  options: (field.options ?? []).join('\n'),
  max_length: asText(field.max_length),
  min: asText(field.min),
  max: asText(field.max),
  multiple: field.multiple ?? false,
  accept: (field.accept ?? []).join('\n'),
});

/** The posted editor (urlencoded): strings as sent, ticked boxes as true. */
export function readFieldDraft(body: Record<string, unknown>): FieldDraft {
  const textOf = (name: keyof FieldDraft) =>
    typeof body[name] === 'string' ? (body[name] as string) : '';
  return {
    name: textOf('name'),
    label: textOf('label'),
    type: textOf('type'),
    required: body.required !== undefined,
    placeholder: textOf('placeholder'),
    help: textOf('help'),
    options: textOf('options'),
    max_length: textOf('max_length'),
    min: textOf('min'),
    max: textOf('max'),
    multiple: body.multiple !== undefined,
    accept: textOf('accept'),
  };
}

const lines = (value: string) =>
  value
    .split(/\r?\n|,/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

/**
 * A field left without a name gets one from its label, as people who never see the posted
 * names expect: `Your e-mail` is `your_e_mail`.
 */
export function nameFromLabel(label: string): string {
  const name = label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  return name === '' ? 'field' : name;
}

/**
 * The draft as the list schema takes one field (`formFieldList` checks it): an empty input
 * is left out, as the API's body would leave it out. A number that does not read as one is
 * a problem here already, so the schema never sees it.
 */
export function fieldOfDraft(draft: FieldDraft): {
  field: Record<string, unknown>;
  errors: DraftErrors;
} {
  const errors: DraftErrors = {};
  const field: Record<string, unknown> = {
    name: draft.name.trim() === '' ? nameFromLabel(draft.label) : draft.name.trim(),
    label: draft.label,
    type: draft.type,
    required: draft.required,
  };
  for (const key of ['placeholder', 'help'] as const)
    if (draft[key].trim() !== '') field[key] = draft[key];
  // Options are one a line, and may contain commas; accepted types may be either.
  const options = draft.options
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (options.length > 0) field.options = options;
  const accept = lines(draft.accept);
  if (accept.length > 0) field.accept = accept;
  for (const key of ['max_length', 'min', 'max'] as const) {
    const typed = draft[key].trim();
    if (typed === '') continue;
    const value = Number(typed);
    if (Number.isFinite(value)) field[key] = value;
    else errors[key] = 'must be a number';
  }
  if (draft.multiple) field.multiple = true;
  return { field, errors };
}
