import type { ErrorBody, ErrorCode } from './types.js';

/*
 * Every answer outside 2xx becomes a FormwardError carrying the API's error envelope
 * (`{ok: false, error, message, errors?, field_errors?, ...}`). Network failures are not
 * answers: fetch's own error passes through unchanged.
 */

/** The code of an answer that was not the API's JSON envelope (a proxy's HTML page, say). */
export const UNEXPECTED_RESPONSE = 'unexpected_response';

export class FormwardError extends Error {
  override readonly name = 'FormwardError';
  /** The HTTP status. */
  readonly status: number;
  /** The envelope's `error`: a code of the API's error table (docs/api-conventions.md). */
  readonly code: ErrorCode | typeof UNEXPECTED_RESPONSE | (string & {});
  /** `field: problem` lines of a validation error; empty when the answer had none. */
  readonly errors: string[];
  /** Ingest on a form with `fields`: one message by field name; empty when none. */
  readonly fieldErrors: Record<string, string>;
  /** Seconds to wait, from `Retry-After` (429, 503); undefined without the header. */
  readonly retryAfter: number | undefined;
  /** The envelope as answered; undefined when the body was not one. */
  readonly body: ErrorBody | undefined;
  readonly response: Response;

  constructor(response: Response, body: unknown) {
    const envelope = isErrorEnvelope(body) ? body : undefined;
    const fallback = `${response.status} ${response.statusText}`.trim();
    super(envelope?.message ?? `unexpected answer: HTTP ${fallback}`);
    this.status = response.status;
    this.code = envelope?.error ?? UNEXPECTED_RESPONSE;
    this.errors = envelope?.errors ?? [];
    this.fieldErrors = envelope?.field_errors ?? {};
    this.body = envelope;
    this.response = response;
    const retryAfter = Number(response.headers.get('Retry-After') ?? Number.NaN);
    this.retryAfter = Number.isFinite(retryAfter) ? retryAfter : undefined;
  }

  /** Whether the API answered with this code (a code the API does not declare does not compile). */
  is(code: ErrorCode): boolean {
    return this.code === code;
  }
}

function isErrorEnvelope(body: unknown): body is ErrorBody {
  if (typeof body !== 'object' || body === null) return false;
  const { ok, error, message } = body as Record<string, unknown>;
  return ok === false && typeof error === 'string' && typeof message === 'string';
}

/** The data of a successful answer; a FormwardError for any other status. */
export async function unwrap<D>(
  call: Promise<{ data?: D; error?: unknown; response: Response }>,
): Promise<D> {
  const { data, error, response } = await call;
  if (!response.ok) throw new FormwardError(response, error);
  return data as D;
}
