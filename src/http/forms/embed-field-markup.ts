import escapeHtml from 'escape-html';
import { isSingleCheckbox, type FormField } from '../../domain/forms/form-fields';
import { attr, autocompleteOf, INPUT_TYPES } from './field-attributes';

/**
 * The plain markup of one field for the ready-to-paste embed: a label and its input, with the
 * browser-side checks that mirror ingest's (required, maxlength, min, max, accept). Ingest
 * checks every one again: the markup only spares a round trip.
 */
export function embedFieldMarkup(field: FormField): string[] {
  const name = attr('name', field.name);
  const label = escapeHtml(field.label);
  const common =
    attr('required', field.required) +
    attr('placeholder', field.placeholder) +
    attr('maxlength', field.max_length) +
    attr('autocomplete', autocompleteOf(field));
  const help = field.help ? [`  <small>${escapeHtml(field.help)}</small>`] : [];
  switch (field.type) {
    case 'hidden':
      return [`<input type="hidden"${name} value="">`];
    case 'textarea':
      return [`<label>${label} <textarea${name} rows="5"${common}></textarea></label>`, ...help];
    case 'select': {
      const options = (field.options ?? []).map(
        (o) => `  <option value="${escapeHtml(o)}">${escapeHtml(o)}</option>`,
      );
      const placeholder = field.multiple ? [] : ['  <option value="">Choose…</option>'];
      return [
        `<label>${label} <select${name}${attr('multiple', field.multiple)}${attr('required', field.required)}>`,
        ...placeholder,
        ...options,
        '</select></label>',
        ...help,
      ];
    }
    case 'radio':
    case 'checkbox': {
      if (isSingleCheckbox(field))
        return [
          `<label><input type="checkbox"${name} value="yes"${attr('required', field.required)}> ${label}</label>`,
          ...help,
        ];
      // A radio group is required through any of its inputs; a checkbox group only server-side.
      const required = field.type === 'radio' ? attr('required', field.required) : '';
      return [
        `<fieldset><legend>${label}</legend>`,
        ...(field.options ?? []).map(
          (o) =>
            `  <label><input type="${field.type}"${name} value="${escapeHtml(o)}"${required}> ${escapeHtml(o)}</label>`,
        ),
        '</fieldset>',
        ...help,
      ];
    }
    case 'file':
      return [
        `<label>${label} <input type="file"${name}${attr('accept', field.accept?.join(','))}${attr('multiple', field.multiple)}${attr('required', field.required)}></label>`,
        ...help,
      ];
    default:
      return [
        `<label>${label} <input type="${INPUT_TYPES[field.type]}"${name}${common}${attr('min', field.min)}${attr('max', field.max)}${field.type === 'number' ? ' step="any"' : ''}></label>`,
        ...help,
      ];
  }
}
