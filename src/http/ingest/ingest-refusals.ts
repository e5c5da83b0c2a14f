import type { FieldProblem } from '../../domain/forms/field-problems';
import type { SubmissionProblem } from '../../domain/submissions/prepare-submission';
import { AlreadySubmittedError, FormClosedError } from '../../domain/submissions/submission-gate';
import {
  FieldValidationError,
  FormClosedAnswer,
  HttpError,
  validationFailed,
} from '../kit/errors/http-error';
import { DEFAULT_LANGUAGE, type Language } from '../../i18n/languages';
import { fieldErrorsIn, problemLines } from './field-problem-text';

/**
 * The answer to a submission prepareSubmission refused: 413 for a limit, 422
 * `invalid_payload` for text that is not well-formed Unicode, else 422 `validation_failed`.
 * Its `errors` are English; `field_errors` are in `language`, the one the request's
 * `Accept-Language` asked for (docs/languages.md), English when it asked for none.
 */
export function submissionRefused(
  problem: SubmissionProblem,
  language: Language | null = null,
): HttpError {
  if (problem.kind === 'too_large')
    return new HttpError('payload_too_large', 'the submission exceeds a limit', problem.errors);
  if (problem.kind === 'ill_formed')
    return new HttpError(
      'invalid_payload',
      'the submission holds text that is not well-formed Unicode',
      problem.errors,
    );
  const errors = problemLines(problem);
  if (problem.fieldProblems) {
    const fieldErrors = fieldErrorsIn(problem.fieldProblems, language ?? DEFAULT_LANGUAGE);
    return new FieldValidationError(errors, fieldErrors, problem.fieldProblems);
  }
  return validationFailed(errors);
}

/**
 * 422 `captcha_failed` (docs/captcha.md): the form's CAPTCHA answer is missing or refused.
 * Browsers on `/f` get it as a page that says why and sends them back to the form to retry.
 */
export const captchaFailed = (reason: string) =>
  new HttpError(
    'captcha_failed',
    `The CAPTCHA check did not pass: ${reason}. Go back to the form, complete the check again and send it.`,
  );

/**
 * A gated form's refusal (docs/form-limits.md) as its answer: 403 `form_closed` with the
 * window, 409 `already_submitted` with the unique field's problem in `field_errors` (in
 * `language`, as for `validation_failed`); null for any other error.
 */
export function gateRefusal(error: unknown, language: Language | null = null): HttpError | null {
  if (error instanceof FormClosedError) return formClosed(error);
  if (error instanceof AlreadySubmittedError) {
    const fieldProblems: Record<string, FieldProblem> = {
      [error.field]: { code: 'already_submitted' },
    };
    const fieldErrors = fieldErrorsIn(fieldProblems, language ?? DEFAULT_LANGUAGE);
    return new FieldValidationError(undefined, fieldErrors, fieldProblems, {
      ref: 'already_submitted',
      message: error.message,
    });
  }
  return null;
}

/** 403 `form_closed` with the form's window. */
export const formClosed = (error: FormClosedError) =>
  new FormClosedAnswer(
    error.message,
    {
      opens_at: error.limits.opens_at,
      closes_at: error.limits.closes_at,
    },
    error.reason,
  );
