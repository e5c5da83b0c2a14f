import { z } from 'zod';
import {
  CHOICE_TYPES,
  isSingleCheckbox,
  type FormField,
  type UnknownFieldPolicy,
} from '../../db/entities/form-fields';
import type { UploadedFile } from '../submissions/store-submission';
import type { FieldProblem } from './field-problems';
import { fileMatchesAccept } from './file-accept';

/** What ingest checks a submission against (docs/form-fields.md); absent: free-form. */
export type FieldRules = { fields: FormField[]; unknownFields: UnknownFieldPolicy };

/** What the rules read of an uploaded (or stored) file. */
export type FileFacts = Pick<UploadedFile, 'fieldName' | 'filename' | 'contentType'>;

/**
 * The outcome of the rules. A refusal still carries `payload` shaped as far as it can be (the
 * valid answers as stored, the refused ones as sent, unknown names by the policy, `reject`
 * dropping them): what a filled honeypot stores, as it is never refused.
 */
export type FieldCheck<F extends FileFacts = UploadedFile> =
  | { ok: true; payload: Record<string, unknown>; files: F[] }
  | { ok: false; fieldProblems: Record<string, FieldProblem>; payload: Record<string, unknown> };

const emailSchema = z.email();
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const UNCHECKED = new Set(['', 'false', 'off', 'no', '0']);

const isEmpty = (value: unknown) =>
  value === undefined ||
  value === null ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.every(isEmpty));

const chars = (value: string) => [...value].length;

/** A posted value as text, or null for what is not text (objects, nested lists). */
const asText = (value: unknown): string | null =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : null;

const realDate = (value: string) => {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
};

const httpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

type Outcome = { value: unknown } | { error: FieldProblem } | { omit: true };

/** One answer to a non-file field: its stored form, or why it is refused. */
function checkValue(field: FormField, raw: unknown): Outcome {
  if (isSingleCheckbox(field)) {
    const text = asText(Array.isArray(raw) ? raw[0] : raw);
    const checked = raw === true || (text !== null && !UNCHECKED.has(text.trim().toLowerCase()));
    if (field.required && !checked) return { error: { code: 'must_be_checked' } };
    return { value: checked };
  }
  if (isEmpty(raw)) return field.required ? { error: { code: 'required' } } : { omit: true };
  const many = field.type === 'checkbox' || (field.type === 'select' && field.multiple === true);
  const list = Array.isArray(raw) ? raw : [raw];
  if (!many && list.length > 1) return { error: { code: 'one_value' } };
  const texts = list.map(asText);
  if (texts.some((t) => t === null)) return { error: { code: 'not_text' } };
  const values = (texts as string[]).filter((t) => t.trim() !== '');
  if (CHOICE_TYPES.has(field.type)) {
    const unknown = values.find((v) => !(field.options ?? []).includes(v));
    if (unknown !== undefined)
      return { error: { code: 'not_an_option', got: unknown.slice(0, 64) } };
    return { value: many ? values : values[0] };
  }
  const value = values[0]!;
  switch (field.type) {
    case 'number': {
      const number = typeof raw === 'number' ? raw : Number(value.trim());
      if (!Number.isFinite(number)) return { error: { code: 'not_a_number' } };
      if (field.min !== undefined && number < field.min)
        return { error: { code: 'too_small', min: field.min } };
      if (field.max !== undefined && number > field.max)
        return { error: { code: 'too_large', max: field.max } };
      return { value: number };
    }
    case 'email': {
      const address = value.trim();
      if (!emailSchema.safeParse(address).success) return { error: { code: 'invalid_email' } };
      return withinLength(field, address);
    }
    case 'url':
      if (!httpUrl(value.trim())) return { error: { code: 'invalid_url' } };
      return withinLength(field, value.trim());
    case 'date':
      if (!realDate(value.trim())) return { error: { code: 'invalid_date' } };
      return { value: value.trim() };
    case 'file':
      return { error: { code: 'not_a_file' } };
    default:
      return withinLength(field, value);
  }
}

const withinLength = (field: FormField, value: string): Outcome =>
  field.max_length !== undefined && chars(value) > field.max_length
    ? { error: { code: 'too_long', max: field.max_length } }
    : { value };

function checkFiles(field: FormField, files: FileFacts[]): FieldProblem | null {
  if (files.length === 0) return field.required ? { code: 'required' } : null;
  if (files.length > 1 && !field.multiple) return { code: 'one_file' };
  const refused = files.find((file) => !fileMatchesAccept(file, field.accept));
  if (refused)
    return { code: 'file_type', filename: refused.filename.slice(0, 64), accepted: field.accept! };
  return null;
}

/**
 * Checks a submission's fields (control and CAPTCHA fields already taken out) and files
 * against the form's list: every problem by field name (a code, FieldProblem), or the payload to store, with numbers
 * as numbers, checkbox groups as lists, a single checkbox as true/false and empty optional
 * answers left out. Names outside the list follow `unknownFields`.
 */
export function validateFields<F extends FileFacts>(
  rules: FieldRules,
  payload: Record<string, unknown>,
  files: F[],
): FieldCheck<F> {
  const errors: Record<string, FieldProblem> = {};
  const stored: Record<string, unknown> = {};
  const known = new Map(rules.fields.map((field) => [field.name, field]));
  for (const field of rules.fields) {
    if (field.type === 'file') {
      const problem = checkFiles(
        field,
        files.filter((f) => f.fieldName === field.name),
      );
      if (problem) errors[field.name] = problem;
      if (payload[field.name] !== undefined && !isEmpty(payload[field.name]))
        errors[field.name] ??= { code: 'not_a_file' };
      continue;
    }
    const outcome = checkValue(field, payload[field.name]);
    if ('error' in outcome) {
      errors[field.name] = outcome.error;
      if (payload[field.name] !== undefined) stored[field.name] = payload[field.name];
    } else if ('value' in outcome) stored[field.name] = outcome.value;
    if (files.some((f) => f.fieldName === field.name))
      errors[field.name] ??= { code: 'must_not_be_file' };
  }
  const unknownNames = [
    ...Object.keys(payload).filter((name) => !known.has(name)),
    ...files.map((f) => f.fieldName).filter((name) => !known.has(name)),
  ];
  if (rules.unknownFields === 'reject')
    for (const name of new Set(unknownNames)) errors[name] = { code: 'unknown_field' };
  if (rules.unknownFields === 'keep')
    for (const name of Object.keys(payload)) if (!known.has(name)) stored[name] = payload[name];
  if (Object.keys(errors).length > 0) return { ok: false, fieldProblems: errors, payload: stored };
  const keptFiles =
    rules.unknownFields === 'keep' ? files : files.filter((f) => known.has(f.fieldName));
  return { ok: true, payload: stored, files: keptFiles };
}
