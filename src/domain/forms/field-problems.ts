/**
 * Why ingest refuses one field's answer, as a code and the facts its message needs. The text
 * is made at the edge (src/http/ingest/field-problem-text.ts), in English for the API's
 * `errors` and in a hosted page's language for the page (docs/languages.md).
 */
export type FieldProblem =
  | { code: 'required' }
  | { code: 'must_be_checked' }
  | { code: 'one_value' }
  | { code: 'not_text' }
  /** `got`: the refused value, at most 64 characters of it. */
  | { code: 'not_an_option'; got: string }
  | { code: 'not_a_number' }
  | { code: 'too_small'; min: number }
  | { code: 'too_large'; max: number }
  | { code: 'too_long'; max: number }
  | { code: 'invalid_email' }
  | { code: 'invalid_url' }
  | { code: 'invalid_date' }
  | { code: 'not_a_file' }
  | { code: 'one_file' }
  /** `filename`: at most 64 characters of it; `accepted`: the field's `accept` list. */
  | { code: 'file_type'; filename: string; accepted: string[] }
  | { code: 'must_not_be_file' }
  | { code: 'unknown_field' }
  /** The form's `limits.unique_field`: an accepted submission already has this value. */
  | { code: 'already_submitted' };

export type FieldProblemCode = FieldProblem['code'];

const CODES = {
  required: true,
  must_be_checked: true,
  one_value: true,
  not_text: true,
  not_an_option: true,
  not_a_number: true,
  too_small: true,
  too_large: true,
  too_long: true,
  invalid_email: true,
  invalid_url: true,
  invalid_date: true,
  not_a_file: true,
  one_file: true,
  file_type: true,
  must_not_be_file: true,
  unknown_field: true,
  already_submitted: true,
} satisfies Record<FieldProblemCode, true>;

/** Every code the rules can give (each needs a message in every catalogue). */
export const FIELD_PROBLEM_CODES = Object.keys(CODES) as FieldProblemCode[];
