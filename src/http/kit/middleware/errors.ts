import type { ErrorRequestHandler, RequestHandler, Request } from 'express';
import type { Logger } from 'pino';
import escapeHtml from 'escape-html';
import { isConnectionError, withoutStatementValues } from '../../../domain/database-errors';
import { LimitReachedError } from '../../../domain/budgets/limit-reached';
import {
  FieldValidationError,
  FormClosedAnswer,
  HttpError,
  limitReached,
} from '../errors/http-error';
import { refusalPageOf } from '../errors/refusal-page';
import type { PublicUrls } from '../../../runtime/public-urls';
import { routeOf, UndeclaredAnswerError } from '../routing/register-routes';
import { routeErrors } from '../routing/route-errors';

/** Seconds a client is asked to wait when the database is unreachable. */
const RETRY_AFTER_SECONDS = 5;

/** The fields of an HTML form post, so the 503 page can offer to send them again. */
export type ResendableFields = { fields: Record<string, string | string[]>; hadFiles: boolean };

/** 503 `unavailable`: the database is restarting or unreachable, which is worth a retry. */
export class DatabaseUnavailableError extends HttpError {
  constructor(readonly resend?: ResendableFields) {
    super(
      'unavailable',
      'the service is briefly unavailable (its database could not be reached); try again in a few seconds',
      undefined,
      { 'Retry-After': String(RETRY_AFTER_SECONDS) },
    );
  }
}

/** Maps body-parser and busboy failures to the error codes of docs/api-conventions.md, Errors. */
export function toHttpError(error: unknown): HttpError | null {
  if (error instanceof HttpError) return error;
  // The domain refuses a creation over a budget wherever it comes from (API or dashboard).
  if (error instanceof LimitReachedError) return limitReached(error);
  // A database restart is transient: tell the client to come back, never a 500.
  if (isConnectionError(error)) return new DatabaseUnavailableError();
  const e = error as { type?: string; status?: number; message?: string };
  switch (e?.type) {
    case 'entity.parse.failed':
      return new HttpError('invalid_json', 'the body is not valid JSON');
    case 'entity.too.large':
      return new HttpError('payload_too_large', 'the body is larger than the limit');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HttpError('unsupported_media_type', e.message ?? 'unsupported encoding');
    case 'request.aborted':
      return new HttpError('validation_failed@400', 'the request was aborted');
  }
  // PostgreSQL refuses NUL in text (22021) and in jsonb (22P05); inputs are checked for it
  // first, so this only catches a path that was missed, as the client's error it is.
  const code = (error as { code?: string })?.code;
  if (code === '22021' || code === '22P05')
    return new HttpError('validation_failed', 'text must not contain NUL characters');
  return null;
}

export function errorBody(error: HttpError, urls: PublicUrls) {
  const body: Record<string, unknown> = { ok: false, error: error.code, message: error.message };
  if (error.errors) body.errors = error.errors;
  if (error instanceof FieldValidationError) body.field_errors = error.fieldErrors;
  if (error instanceof FormClosedAnswer) Object.assign(body, error.window);
  body.links = [{ rel: 'docs', href: `${urls.base}/docs#errors` }, ...error.links];
  return body;
}

/**
 * Browsers posting an HTML form, or opening a manage link (docs/manage-links.md), get a
 * readable page; everyone else gets JSON.
 */
export function prefersHtml(req: Request): boolean {
  return (
    (req.path.startsWith('/f/') || req.path.startsWith('/s/')) &&
    req.accepts(['json', 'html']) === 'html'
  );
}

/**
 * With `strictAnswers` (tests), an error a route does not declare is answered as 500
 * `undeclared_answer` naming it, so the suites that reach it fail and say why.
 */
export function errorHandler(
  urls: PublicUrls,
  logger: Logger,
  options: { strictAnswers: boolean },
): ErrorRequestHandler {
  return (error, req, res, _next) => {
    let httpError = toHttpError(error);
    const route = routeOf(res);
    if (options.strictAnswers && error instanceof UndeclaredAnswerError) {
      httpError = HttpError.undeclaredAnswer(error.message);
    } else if (options.strictAnswers && httpError && route) {
      const declared = routeErrors(route).some(
        (e) => e.status === httpError!.status && e.code === httpError!.code,
      );
      if (!declared) {
        httpError = HttpError.undeclaredAnswer(
          `${route.operationId} answered ${httpError.status} ${httpError.code}, which it does not declare`,
        );
      }
    }
    if (httpError instanceof DatabaseUnavailableError)
      logger.warn({ err: error, method: req.method, path: req.path }, 'database unavailable');
    if (!httpError) {
      logger.error(
        { err: withoutStatementValues(error), method: req.method, path: req.path },
        'unhandled error',
      );
      httpError = new HttpError(
        'internal_error',
        'something went wrong on our side; it has been logged',
      );
    }
    if (res.headersSent) return res.end();
    for (const [name, value] of Object.entries(httpError.headers)) res.setHeader(name, value);
    if (prefersHtml(req)) {
      // A route's own refusal page: a hosted page's refused post shows the page again
      // (docs/form-pages.md).
      const page =
        httpError instanceof DatabaseUnavailableError && httpError.resend
          ? resendPage(req.originalUrl, httpError.resend)
          : (refusalPageOf(res)?.(httpError) ?? errorPage(httpError, req.method));
      res.status(httpError.status).type('html').send(page);
      return;
    }
    res.status(httpError.status).json(errorBody(httpError, urls));
  };
}

const pageStart = (title: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem">`;

function errorPage(error: HttpError, method: string): string {
  // A GET is someone opening a form's page (docs/form-pages.md), not sending one.
  if (method === 'GET')
    return `${pageStart('Form not available')}
<h1>Form not available</h1><p>${escapeHtml(error.message)}</p></body></html>`;
  const details = (error.errors ?? []).map((e) => `<li>${escapeHtml(e)}</li>`).join('');
  return `${pageStart('Submission not accepted')}
<h1>Submission not accepted</h1><p>${escapeHtml(error.message)}</p>${details ? `<ul>${details}</ul>` : ''}
<p>Use your browser's Back button to return to the form.</p></body></html>`;
}

/** The submission was not stored: a button posts the same fields (escaped) to the same URL. */
function resendPage(action: string, { fields, hadFiles }: ResendableFields): string {
  const inputs = Object.entries(fields)
    .flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => [name, v]))
    .map(
      ([name, value]) =>
        `<input type="hidden" name="${escapeHtml(name!)}" value="${escapeHtml(value!)}">`,
    )
    .join('\n');
  const files = hadFiles
    ? '<p>Attached files could not be kept: go back and attach them again.</p>'
    : '';
  return `${pageStart('Submission not sent yet')}
<h1>Not sent yet</h1>
<p>We could not store your submission just now. Nothing was lost on your side: send it again in a few seconds.</p>${files}
<form method="post" action="${escapeHtml(action)}">
${inputs}
<button type="submit">Send again</button>
</form>
<p>Or use your browser's Back button to return to the form.</p></body></html>`;
}

export const notFoundHandler: RequestHandler = (req) => {
  throw new HttpError('not_found', `no route for ${req.method} ${req.path}`);
};
