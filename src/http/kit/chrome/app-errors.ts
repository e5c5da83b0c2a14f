import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { withoutStatementValues } from '../../../domain/database-errors';
import { toHttpError } from '../middleware/errors';
import { sendPage } from './send-page';
import type { DashboardSession } from '../session/session-guard';

/**
 * The last handlers under `/app`: an unknown path and an error thrown by a page answer with a
 * page in the dashboard's layout (the navigation shown when signed in), not the API's JSON.
 * A 500 page says nothing of the error itself; the log has it.
 */
export const appNotFound: RequestHandler = (req, res) =>
  sendAppError(res, 404, 'Not found', ['There is no such page in this account.']);

export function appErrorPage(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) return res.end();
    const known = toHttpError(error);
    if (!known || known.status >= 500)
      logger[known ? 'warn' : 'error'](
        { err: withoutStatementValues(error), method: req.method, path: req.path },
        'dashboard page failed',
      );
    if (known && known.status < 500)
      return sendAppError(res, known.status, 'Request refused', [known.message]);
    for (const [name, value] of Object.entries(known?.headers ?? {})) res.setHeader(name, value);
    return sendAppError(res, known?.status ?? 500, 'Something went wrong', [
      known?.status === 503
        ? 'The service is briefly unavailable; try again in a few seconds.'
        : 'Something went wrong on our side; it has been logged.',
    ]);
  };
}

/** The message page; the header shows the person when the session was read before the error. */
function sendAppError(res: Response, status: number, title: string, lines: string[]) {
  const session = res.locals.dashboard as DashboardSession | undefined;
  const chrome = { user: session, csrfToken: session?.csrfToken ?? '' };
  const link = { href: '/app', label: 'Back to the overview' };
  return sendPage(res, status, 'message', title, chrome, { lines, link, error: true });
}
