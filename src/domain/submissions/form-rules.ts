import type { SpecialFields } from '../../db/entities/submission';
import type { FieldProblem } from '../forms/field-problems';
import { validateFields, type FieldRules, type FileFacts } from '../forms/validate-fields';
import { normalizeSpecialFields } from './special-fields';

/**
 * Why a submission is refused: `too_large` (a limit is exceeded, HTTP 413), `ill_formed`
 * (text that is not well-formed Unicode, HTTP 422 `invalid_payload`) or `invalid` (HTTP 422
 * `validation_failed`); `errors` names each problem, one line a field, and with a field list
 * `fieldProblems` holds them by field name as codes instead, for the edge to put in words
 * (src/http/ingest/field-problem-text.ts: the API's English lines, a page's language).
 */
export type SubmissionProblem = {
  kind: 'too_large' | 'ill_formed' | 'invalid';
  errors: string[];
  /** With a field list: one problem by field name, for pages and clients to show beside it. */
  fieldProblems?: Record<string, FieldProblem>;
};

export type FormRulesCheck<F extends FileFacts> =
  | { ok: true; payload: Record<string, unknown>; files: F[]; special: SpecialFields | null }
  | {
      ok: false;
      problem: SubmissionProblem;
      /** Shaped as far as the rules allow, for a spam row (which is never refused). */
      payload: Record<string, unknown>;
      special: SpecialFields | null;
    };

/**
 * The rules a submission's fields keep, at ingest and when a spam row is marked not spam:
 * the form's field list and unknown-name policy (docs/form-fields.md), then the e-mail check
 * of the special fields. Out comes the payload as stored and its `special_normalized`, or
 * the problems.
 */
export function checkFormRules<F extends FileFacts>(
  rules: FieldRules | null | undefined,
  payload: Record<string, unknown>,
  files: F[],
): FormRulesCheck<F> {
  let fields = payload;
  let kept = files;
  let fieldProblems: Record<string, FieldProblem> | undefined;
  if (rules) {
    const checked = validateFields(rules, payload, files);
    fields = checked.payload;
    if (checked.ok) kept = checked.files;
    else fieldProblems = checked.fieldProblems;
  }
  const special = normalizeSpecialFields(fields);
  if (fieldProblems) {
    const problem: SubmissionProblem = { kind: 'invalid', errors: [], fieldProblems };
    return { ok: false, problem, payload: fields, special: special.special };
  }
  if (special.errors.length > 0) {
    const problem: SubmissionProblem = { kind: 'invalid', errors: special.errors };
    return { ok: false, problem, payload: fields, special: special.special };
  }
  return { ok: true, payload: fields, files: kept, special: special.special };
}
