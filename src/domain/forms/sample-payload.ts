import { isSingleCheckbox, type FormField } from '../../db/entities/form-fields';

const TEXT_SAMPLES: Partial<Record<FormField['type'], string>> = {
  email: 'jane@example.com',
  tel: '+1 555 0100',
  url: 'https://example.com',
  date: '2026-01-31',
  textarea: 'Hello!',
};

function sampleValue(field: FormField): unknown {
  const first = field.options?.[0] ?? '';
  if (isSingleCheckbox(field)) return true;
  switch (field.type) {
    case 'number':
      return field.min ?? (field.max !== undefined ? Math.min(1, field.max) : 1);
    case 'radio':
      return first;
    case 'select':
      return field.multiple ? [first] : first;
    case 'checkbox':
      return [first];
    default: {
      const text = TEXT_SAMPLES[field.type] ?? (field.name === 'name' ? 'Jane' : 'example');
      return field.max_length !== undefined ? text.slice(0, field.max_length) : text;
    }
  }
}

/**
 * A payload a form with these fields accepts (file fields aside, they go to `/f` as
 * multipart): the request examples shown with every form post it.
 */
export function samplePayload(fields: FormField[]): Record<string, unknown> {
  return Object.fromEntries(
    fields.filter((f) => f.type !== 'file').map((f) => [f.name, sampleValue(f)]),
  );
}
