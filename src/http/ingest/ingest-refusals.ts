import type { SubmissionProblem } from '../../domain/submissions/prepare-submission';
import { HttpError, validationFailed } from '../http-error';

/** The answer to a submission prepareSubmission refused: 413 for a limit, else 422. */
export function submissionRefused(problem: SubmissionProblem): HttpError {
  if (problem.kind === 'too_large')
    return new HttpError(
      413,
      'payload_too_large',
      'the submission exceeds a limit',
      problem.errors,
    );
  return validationFailed(problem.errors);
}
