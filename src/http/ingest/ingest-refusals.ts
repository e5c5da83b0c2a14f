import type { SubmissionProblem } from '../../domain/submissions/prepare-submission';
import { FieldValidationError, HttpError, validationFailed } from '../kit/errors/http-error';

/**
 * The answer to a submission prepareSubmission refused: 413 for a limit, 422
 * `invalid_payload` for text that is not well-formed Unicode, else 422 `validation_failed`.
 */
export function submissionRefused(problem: SubmissionProblem): HttpError {
  if (problem.kind === 'too_large')
    return new HttpError('payload_too_large', 'the submission exceeds a limit', problem.errors);
  if (problem.kind === 'ill_formed')
    return new HttpError(
      'invalid_payload',
      'the submission holds text that is not well-formed Unicode',
      problem.errors,
    );
  if (problem.fieldErrors) return new FieldValidationError(problem.errors, problem.fieldErrors);
  return validationFailed(problem.errors);
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
