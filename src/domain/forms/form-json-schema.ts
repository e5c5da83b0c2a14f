import {
  isSingleCheckbox,
  type FormField,
  type UnknownFieldPolicy,
} from '../../db/entities/form-fields';
import { FILL_STAMP_FIELD, HONEYPOT_FIELD } from '../submissions/special-fields';

type JsonSchema = Record<string, unknown>;

// Ingest reads a value made only of spaces as empty: a required text needs one non-space.
const NOT_BLANK = '\\S';

function textSchema(field: FormField, extra: JsonSchema = {}): JsonSchema {
  return {
    type: 'string',
    ...extra,
    ...(field.required ? { pattern: NOT_BLANK } : {}),
    ...(field.max_length !== undefined ? { maxLength: field.max_length } : {}),
  };
}

function propertySchema(field: FormField): JsonSchema {
  const described = { title: field.label, ...(field.help ? { description: field.help } : {}) };
  const options = field.options ?? [];
  switch (field.type) {
    case 'email':
      return { ...described, ...textSchema(field, { format: 'email' }) };
    case 'url':
      return { ...described, ...textSchema(field, { format: 'uri', pattern: '^https?://' }) };
    case 'date':
      return { ...described, type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
    case 'number':
      return {
        ...described,
        type: 'number',
        ...(field.min !== undefined ? { minimum: field.min } : {}),
        ...(field.max !== undefined ? { maximum: field.max } : {}),
      };
    case 'radio':
      return { ...described, type: 'string', enum: options };
    case 'select':
      return field.multiple
        ? {
            ...described,
            type: 'array',
            items: { type: 'string', enum: options },
            ...(field.required ? { minItems: 1 } : {}),
          }
        : { ...described, type: 'string', enum: options };
    case 'checkbox':
      if (isSingleCheckbox(field))
        return { ...described, type: 'boolean', ...(field.required ? { const: true } : {}) };
      return {
        ...described,
        type: 'array',
        items: { type: 'string', enum: options },
        ...(field.required ? { minItems: 1 } : {}),
      };
    default:
      return { ...described, ...textSchema(field) };
  }
}

/**
 * The JSON Schema (2020-12) of the payload a form accepts on `/json` (docs/form-fields.md):
 * every payload valid against it is accepted. Free-form forms take any object (an `email`, when
 * present, must be an address). File fields are posted as multipart to `/f` and are not in it.
 */
export function formJsonSchema(form: {
  name: string;
  schemaUrl: string;
  fields: FormField[] | null;
  unknownFields: UnknownFieldPolicy;
  /** The CAPTCHA widget's field, when the form has a CAPTCHA. */
  captchaField: string | null;
}): JsonSchema {
  const control: Record<string, JsonSchema> = {
    [HONEYPOT_FIELD]: { type: 'string', maxLength: 0, description: 'the honeypot: leave empty' },
    [FILL_STAMP_FIELD]: {
      type: 'string',
      description: 'page-load time in ms since the epoch (optional)',
    },
    ...(form.captchaField
      ? { [form.captchaField]: { type: 'string', description: "the CAPTCHA widget's answer" } }
      : {}),
  };
  const base = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: form.schemaUrl,
    title: form.name,
    type: 'object',
  };
  if (!form.fields)
    return {
      ...base,
      description: 'A free-form form: any object of fields.',
      properties: { email: { type: 'string', format: 'email' }, ...control },
      ...(form.captchaField ? { required: [form.captchaField] } : {}),
      additionalProperties: true,
    };
  const posted = form.fields.filter((field) => field.type !== 'file');
  const files = form.fields.filter((field) => field.type === 'file').map((field) => field.name);
  const required = posted.filter((field) => field.required).map((field) => field.name);
  return {
    ...base,
    ...(files.length > 0
      ? {
          description: `File fields (${files.join(', ')}) are posted as multipart/form-data to /f, not in JSON.`,
        }
      : {}),
    properties: {
      ...Object.fromEntries(posted.map((field) => [field.name, propertySchema(field)])),
      ...control,
    },
    required: [...required, ...(form.captchaField ? [form.captchaField] : [])],
    additionalProperties: form.unknownFields !== 'reject',
  };
}
