/** An error answer of docs/api-conventions.md (Errors): status, machine code, human message, optional list. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors?: string[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
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
