import escapeHtml from 'escape-html';
import { isSingleCheckbox, type FormField } from '../../../domain/forms/form-fields';
import { attr, autocompleteOf, INPUT_TYPES } from '../../forms/field-attributes';
import { translate } from '../../../i18n/catalogue';
import type { Language } from '../../../i18n/languages';
import { textIn } from './page-text';

/** What one field shows besides its definition: values, its error, whether it takes focus. */
export type FieldState = {
  /** The values to show again (a re-rendered post) or from the query (hidden fields). */
  values: string[];
  error: string | null;
  /** The first field with an error takes the focus when the page loads (no script needed). */
  autofocus: boolean;
  /** The page is shown again after a post: chosen files were not kept. */
  filesDropped: boolean;
  /** The page's language, of every text that is not the owner's. */
  language: Language;
};

/** Ids come from the field's position, never from its name (names may hold any character). */
export const controlId = (index: number) => `f${index}`;
/** Where the error summary's link for a field goes: its control, or a group's first choice. */
export const errorTargetId = (field: FormField, index: number) =>
  (field.type === 'radio' || field.type === 'checkbox') && !isSingleCheckbox(field)
    ? `${controlId(index)}-0`
    : controlId(index);

const requiredMark = '<span class="req" aria-hidden="true">*</span>';

/**
 * One field of the page: its label (a legend for a group of choices), help text, error
 * message and control, with the posted values again. Help and error are tied to the control
 * with `aria-describedby`; an error also sets `aria-invalid`. Everything is escaped.
 */
export function fieldMarkup(field: FormField, index: number, state: FieldState): string {
  if (field.type === 'hidden')
    return `<input type="hidden"${attr('name', field.name)}${attr('value', state.values[0] ?? '')}>`;
  const id = controlId(index);
  const help = field.type === 'file' ? fileHelp(field, state) : (field.help ?? null);
  const helpId = help ? `${id}-help` : null;
  const errorId = state.error ? `${id}-error` : null;
  const describedBy = [helpId, errorId].filter(Boolean).join(' ') || undefined;
  const notes =
    (help ? `<p class="hint" id="${helpId}">${escapeHtml(help)}</p>` : '') +
    (state.error
      ? `<p class="error" id="${errorId}"><span class="visually-hidden">${textIn(state.language, 'field.error_prefix')} </span>${escapeHtml(state.error)}</p>`
      : '');
  const wrapper = `field${state.error ? ' field-invalid' : ''}`;
  const label = escapeHtml(field.label) + (field.required ? requiredMark : '');
  const aria =
    attr('aria-describedby', describedBy) +
    attr('aria-invalid', state.error ? 'true' : undefined) +
    attr('autofocus', state.autofocus);

  if (isSingleCheckbox(field)) {
    const checked = state.values.some((v) => v !== '');
    return `<div class="${wrapper}">${notes}<div class="check"><input type="checkbox" id="${id}"${attr('name', field.name)} value="yes"${attr('checked', checked)}${requiredAttrs(field)}${aria}><label for="${id}">${label}</label></div></div>`;
  }
  if (field.type === 'radio' || field.type === 'checkbox') return choiceGroup();

  const control = (() => {
    const common = attr('name', field.name) + requiredAttrs(field) + aria;
    switch (field.type) {
      case 'textarea':
        return `<textarea id="${id}" rows="5"${common}${attr('placeholder', field.placeholder)}${attr('maxlength', field.max_length)}>${escapeHtml(state.values[0] ?? '')}</textarea>`;
      case 'select': {
        const chosen = new Set(state.values);
        const options = (field.options ?? []).map(
          (o) =>
            `<option${optionValue(o)}${attr('selected', chosen.has(o))}>${escapeHtml(o)}</option>`,
        );
        const placeholder = field.multiple
          ? ''
          : `<option value="">${textIn(state.language, 'page.choose')}</option>`;
        return `<select id="${id}"${common}${attr('multiple', field.multiple)}>${placeholder}${options.join('')}</select>`;
      }
      case 'file':
        return `<input type="file" id="${id}"${common}${attr('accept', field.accept?.join(','))}${attr('multiple', field.multiple)}>`;
      default:
        return `<input type="${INPUT_TYPES[field.type]}" id="${id}"${common}${attr('value', state.values[0])}${attr('placeholder', field.placeholder)}${attr('maxlength', field.max_length)}${attr('min', field.min)}${attr('max', field.max)}${field.type === 'number' ? ' step="any" inputmode="decimal"' : ''}${attr('autocomplete', autocompleteOf(field))}>`;
    }
  })();
  return `<div class="${wrapper}"><label for="${id}">${label}</label>${notes}${control}</div>`;

  /**
   * Radios (one answer) and a checkbox group (any number) in a fieldset whose legend is the
   * label. A radio group is a `radiogroup` that can say it is required and invalid; a checkbox
   * group's "at least one" is said in its legend, as no attribute means that.
   */
  function choiceGroup(): string {
    const radio = field.type === 'radio';
    const chosen = new Set(state.values);
    const choices = (field.options ?? []).map(
      (o, i) =>
        `<label class="choice"><input type="${field.type}" id="${id}-${i}"${attr('name', field.name)}${attr('value', o)}${attr('checked', chosen.has(o))}${radio ? attr('required', field.required) : attr('aria-invalid', state.error ? 'true' : undefined)}${attr('autofocus', state.autofocus && i === 0)}> <span>${escapeHtml(o)}</span></label>`,
    );
    const groupAria = radio
      ? ` role="radiogroup"${attr('aria-required', field.required ? 'true' : undefined)}${attr('aria-invalid', state.error ? 'true' : undefined)}`
      : '';
    const atLeastOne =
      !radio && field.required
        ? `<span class="visually-hidden"> ${textIn(state.language, 'page.choose_at_least_one')}</span>`
        : '';
    return `<fieldset class="${wrapper}"${groupAria}${attr('aria-describedby', describedBy)}><legend>${label}${atLeastOne}</legend>${notes}<div class="choices">${choices.join('')}</div></fieldset>`;
  }
}

/**
 * An option's `value` attribute, only where its text would not say the same: without one, a
 * browser sends the text with its white space trimmed and collapsed, which is the option
 * itself unless it has white space to trim or collapse. The text is written once.
 */
const optionValue = (option: string) =>
  /^[^\t\n\f\r ]+(?: [^\t\n\f\r ]+)*$/.test(option) ? '' : attr('value', option);

const requiredAttrs = (field: FormField) =>
  field.required ? ' required aria-required="true"' : '';

/** A file field's help: its own, the accepted types, and after a failed post a reminder. */
function fileHelp(field: FormField, state: FieldState): string | null {
  const parts = [field.help ?? null];
  if (field.accept?.length)
    parts.push(
      translate(state.language, 'page.files_accepted', { types: field.accept.join(', ') }),
    );
  if (state.filesDropped) parts.push(translate(state.language, 'page.files_choose_again'));
  const text = parts.filter(Boolean).join(' ');
  return text === '' ? null : text;
}
