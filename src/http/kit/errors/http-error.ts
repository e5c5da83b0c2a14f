import { LimitReachedError } from '../../../domain/budgets/limit-reached';
import type { FieldProblem } from '../../../domain/forms/field-problems';
import type { ClosedReason } from '../../../domain/forms/form-limits';
import { resolveErrorRef, type ErrorRef } from './error-codes';
import type { Link } from '../answers/links';

/**
 * An error answer of docs/api-conventions.md (Errors): a code of the error-code table (its
 * status comes from there; `code@status` for one of its other statuses), human message,
 * optional list, headers, and links besides `docs` (e.g. the run a `recovery_running` names).
 */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(
    ref: ErrorRef,
    message: string,
    readonly errors?: string[],
    readonly headers: Record<string, string> = {},
    readonly links: Link[] = [],
  ) {
    super(message);
    ({ status: this.status, code: this.code } = resolveErrorRef(ref));
  }

  /**
   * 500 `undeclared_answer`, the one code outside the table: under `strictAnswers` (tests) it
   * replaces an answer a route does not declare, so the suite that reaches it fails and says why.
   */
  static undeclaredAnswer(message: string): HttpError {
    const error = new HttpError('internal_error', message);
    Object.assign(error, { code: 'undeclared_answer' });
    return error;
  }
}

/**
 * A submission refused for its fields: 422 `validation_failed` when checked against its form's
 * fields (or another code, e.g. 409 `already_submitted` for a repeated unique value), with
 * `errors` as everywhere and the same by field name for pages and clients
 * (docs/form-fields.md), in the language the client asked for (docs/languages.md);
 * `fieldProblems` keeps them as codes, for a hosted page to say them in its own language.
 */
export class FieldValidationError extends HttpError {
  constructor(
    errors: string[] | undefined,
    readonly fieldErrors: Record<string, string>,
    readonly fieldProblems: Record<string, FieldProblem>,
    answer: { ref: ErrorRef; message: string } = {
      ref: 'validation_failed',
      message: 'the submission failed validation',
    },
  ) {
    super(answer.ref, answer.message, errors);
  }
}

/**
 * 403 `form_closed` (docs/form-limits.md): the form's window is not open or its count is
 * reached; the answer carries the window, `opens_at` and `closes_at` (null when unset).
 */
export class FormClosedAnswer extends HttpError {
  constructor(
    message: string,
    readonly window: { opens_at: string | null; closes_at: string | null },
    /** Why it is closed, for a hosted page to say in its own language. */
    readonly reason: ClosedReason,
  ) {
    super('form_closed', message);
  }
}

export const notFound = (what = 'resource') => new HttpError('not_found', `${what} not found`);

export const validationFailed = (errors: string[], message = 'the request failed validation') =>
  new HttpError('validation_failed', message, errors);

/** The delivery engine could not be reached to start a workflow (a replay, a recovery). */
export const temporalUnavailable = () =>
  new HttpError(
    'unavailable',
    'the delivery engine (Temporal) is unreachable; try again shortly',
    undefined,
    { 'Retry-After': '30' },
  );

/** 409 `limit_reached`: a budget against amplification is used up; the message names it. */
export const limitReached = (error: LimitReachedError) =>
  new HttpError('limit_reached', error.message);

/** 429 `rate_limited`, asking to come back after `waitSeconds`. */
export const rateLimited = (message: string, waitSeconds: number) =>
  new HttpError('rate_limited', message, undefined, { 'Retry-After': String(waitSeconds) });
