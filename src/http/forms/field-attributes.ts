import escapeHtml from 'escape-html';
import type { FormField } from '../../domain/forms/form-fields';

/** One HTML attribute, escaped: absent for undefined or false, bare for true. */
export const attr = (name: string, value: string | number | boolean | undefined) =>
  value === undefined || value === false
    ? ''
    : value === true
      ? ` ${name}`
      : ` ${name}="${escapeHtml(String(value))}"`;

/** The `<input type>` of the field types that are a plain input. */
export const INPUT_TYPES: Partial<Record<FormField['type'], string>> = {
  text: 'text',
  email: 'email',
  number: 'number',
  tel: 'tel',
  url: 'url',
  date: 'date',
};

// What browsers may fill in for a person: the common names and types only, never a guess.
const AUTOCOMPLETE_BY_NAME: Record<string, string> = {
  name: 'name',
  email: 'email',
  phone: 'tel',
  tel: 'tel',
};
const AUTOCOMPLETE_BY_TYPE: Partial<Record<FormField['type'], string>> = {
  email: 'email',
  tel: 'tel',
};

/** The `autocomplete` token of a field, when its name or type says what it holds. */
export const autocompleteOf = (field: FormField) =>
  AUTOCOMPLETE_BY_NAME[field.name] ?? AUTOCOMPLETE_BY_TYPE[field.type];
