import { z } from 'zod';
import {
  CHOICE_TYPES,
  FIELD_TYPES,
  MAX_FIELDS,
  MAX_OPTIONS,
  UNKNOWN_FIELD_POLICIES,
  type FieldType,
} from '../../domain/forms/form-fields';
import { fieldListBudgetProblems } from '../../domain/forms/definition-budget';
import { RESPONSE_FIELDS } from '../../domain/captcha/captcha-settings';
import { FILL_STAMP_FIELD, HONEYPOT_FIELD } from '../../domain/submissions/special-fields';
import { INGEST_LIMITS } from '../../domain/submissions/limits';
import { text } from '../kit/answers/text';

/** Control fields ingest takes out of every body: a field of the list may not use them. */
const RESERVED_NAMES = new Set([
  HONEYPOT_FIELD,
  FILL_STAMP_FIELD,
  ...Object.values(RESPONSE_FIELDS),
]);

const TEXT_LIKE: ReadonlySet<FieldType> = new Set([
  'text',
  'email',
  'textarea',
  'tel',
  'url',
  'hidden',
]);

// A MIME type (`image/png`, `image/*`) or an extension (`.pdf`), as HTML's `accept` takes them.
const ACCEPT_ENTRY =
  /^(?:\.[a-z0-9][a-z0-9.+-]{0,31}|[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/(?:\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,63}))$/;

const shortText = (max: number) => text().trim().min(1, 'must not be empty').max(max);

const fieldName = text()
  .min(1, 'must not be empty')
  .max(INGEST_LIMITS.fieldNameChars, `must be at most ${INGEST_LIMITS.fieldNameChars} characters`)
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'must not contain control characters')
  .refine((name) => name.trim() === name, 'must not start or end with spaces')
  .refine(
    (name) => !RESERVED_NAMES.has(name),
    `is reserved (${[...RESERVED_NAMES].join(', ')} are control fields)`,
  );

const field = z
  .strictObject({
    name: fieldName.describe('the name the value is posted under'),
    label: shortText(200).describe('what a person sees beside the input'),
    type: z.enum(FIELD_TYPES, {
      error: `must be one of ${FIELD_TYPES.join(', ')}`,
    }),
    required: z.boolean().default(false),
    placeholder: shortText(200).optional(),
    help: shortText(500).optional().describe('a hint shown under the input'),
    options: z
      .array(shortText(200))
      .min(1, 'needs at least one option')
      .max(MAX_OPTIONS, `may have at most ${MAX_OPTIONS} options`)
      .optional()
      .describe('the choices of select, radio and a checkbox group'),
    max_length: z
      .number()
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(INGEST_LIMITS.fieldValueBytes, `must be at most ${INGEST_LIMITS.fieldValueBytes}`)
      .optional(),
    min: z.number().finite().optional().describe('`number`: the smallest value'),
    max: z.number().finite().optional().describe('`number`: the largest value'),
    multiple: z.boolean().optional().describe('`select` and `file`: more than one answer'),
    accept: z
      .array(
        text()
          .trim()
          .toLowerCase()
          .refine(
            (entry) => ACCEPT_ENTRY.test(entry),
            'must be a MIME type or an extension such as .pdf',
          ),
      )
      .min(1, 'needs at least one type')
      .max(50)
      .optional()
      .describe('`file`: MIME types (image/png, image/*) or extensions (.pdf)'),
  })
  .superRefine((value, ctx) => {
    const problem = (path: string, message: string) =>
      ctx.addIssue({ code: 'custom', path: [path], message });
    const choice = CHOICE_TYPES.has(value.type);
    if (value.options !== undefined && !choice)
      problem('options', 'are only for select, radio and checkbox fields');
    if (value.options === undefined && (value.type === 'select' || value.type === 'radio'))
      problem('options', `are required for a ${value.type} field`);
    if (value.options && new Set(value.options).size !== value.options.length)
      problem('options', 'must not repeat');
    if (value.max_length !== undefined && !TEXT_LIKE.has(value.type))
      problem('max_length', 'is only for text, email, textarea, tel, url and hidden fields');
    for (const bound of ['min', 'max'] as const)
      if (value[bound] !== undefined && value.type !== 'number')
        problem(bound, 'is only for number fields');
    if (value.min !== undefined && value.max !== undefined && value.min > value.max)
      problem('min', 'must not be greater than max');
    if (value.multiple !== undefined && value.type !== 'select' && value.type !== 'file')
      problem('multiple', 'is only for select and file fields');
    if (value.accept !== undefined && value.type !== 'file')
      problem('accept', 'is only for file fields');
    if (value.placeholder !== undefined && !TEXT_LIKE.has(value.type) && value.type !== 'number')
      problem('placeholder', 'is only for fields a person types into');
  });

/**
 * A field list with every field valid and every name once, before its byte budget: how a
 * stored list is answered (one stored before the budget existed may be over it), and what the
 * builder weighs an edit's budget against the stored list with (field-list-edits.ts).
 */
export const formFieldListWithoutBudget = z
  .array(field)
  .max(MAX_FIELDS, `may have at most ${MAX_FIELDS} fields`)
  .superRefine(
    (fields, ctx) => {
      // Runs on the list as sent even when a field failed, so every problem is told at once.
      const seen = new Set<unknown>();
      fields.forEach((f, index) => {
        const name = (f as { name?: unknown } | null)?.name;
        if (typeof name !== 'string') return;
        if (seen.has(name))
          ctx.addIssue({
            code: 'custom',
            path: [index, 'name'],
            message: `"${name}" is used by an earlier field; names must be unique`,
          });
        seen.add(name);
      });
    },
    { when: (payload) => Array.isArray(payload.value) },
  );

/**
 * A field list: every field valid, every name once and within the definition's byte budget,
 * else the whole list is refused.
 */
export const formFieldList = formFieldListWithoutBudget
  .superRefine(
    (fields, ctx) => {
      // The definition's byte budget, measured on the list as it would be stored.
      for (const message of fieldListBudgetProblems(fields))
        ctx.addIssue({ code: 'custom', message });
    },
    { when: (payload) => Array.isArray(payload.value) },
  )
  .meta({ id: 'FormFields' });

export const unknownFieldsPolicy = z
  .enum(UNKNOWN_FIELD_POLICIES, { error: 'must be keep, drop or reject' })
  .describe('names posted outside `fields`: keep (default), drop or reject (422)');

export type FormFieldInput = z.output<typeof formFieldList>[number];
