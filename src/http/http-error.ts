import { LimitReachedError } from '../domain/budgets/limit-reached';
import type { Link } from './links';

/**
 * An error answer of docs/api-conventions.md (Errors): status, machine code, human message,
 * optional list, headers, and links besides `docs` (e.g. the run a `recovery_running` names).
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors?: string[],
    readonly headers: Record<string, string> = {},
    readonly links: Link[] = [],
  ) {
    super(message);
  }
}

/**
 * 422 `validation_failed` of a submission checked against its form's fields: `errors` as
 * everywhere, and the same by field name for pages and clients (docs/form-fields.md).
 */
export class FieldValidationError extends HttpError {
  constructor(
    errors: string[],
    readonly fieldErrors: Record<string, string>,
  ) {
    super(422, 'validation_failed', 'the submission failed validation', errors);
  }
}

export const notFound = (what = 'resource') => new HttpError(404, 'not_found', `${what} not found`);

export const validationFailed = (errors: string[], message = 'the request failed validation') =>
  new HttpError(422, 'validation_failed', message, errors);

/** The delivery engine could not be reached to start a workflow (a replay, a recovery). */
export const temporalUnavailable = () =>
  new HttpError(
    503,
    'unavailable',
    'the delivery engine (Temporal) is unreachable; try again shortly',
    undefined,
    { 'Retry-After': '30' },
  );

/** 409 `limit_reached`: a budget against amplification is used up; the message names it. */
export const limitReached = (error: LimitReachedError) =>
  new HttpError(409, 'limit_reached', error.message);

/** 429 `rate_limited`, asking to come back after `waitSeconds`. */
export const rateLimited = (message: string, waitSeconds: number) =>
  new HttpError(429, 'rate_limited', message, undefined, { 'Retry-After': String(waitSeconds) });
