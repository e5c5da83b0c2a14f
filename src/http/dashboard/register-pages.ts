import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { AppContext } from '../../runtime/app-context';
import { setNoStore } from '../middleware/no-store';
import { runMiddleware } from '../run-middleware';
import { sendAppPage } from './app-page';
import type { AnyPage } from './define-page';
import { takeFlash } from './flash';
import { guestCsrfMatches, guestCsrfToken, renewGuestCsrfToken } from './guest-csrf';
import { sendPage } from './send-page';
import type { TemplateName, Templates } from './templates';

/** Where the signed-in pages live: dashboardRouter checks the session (and CSRF) there. */
export const SESSION_AREA = '/app';

const formBody = express.urlencoded({ extended: false, limit: '64kb' });

/**
 * Adds the pages to the dashboard's router, in the list's order (a fixed path such as
 * `/app/forms/new` before `/app/forms/:id`). A `session` page must sit under SESSION_AREA,
 * where requireSession already ran: a page declared elsewhere fails at start-up rather than
 * open without a session.
 */
export function registerPages(router: Router, pages: readonly AnyPage[], ctx: AppContext): void {
  for (const page of pages) {
    if (page.enabled && !page.enabled(ctx)) continue;
    if (page.access === 'session' && !inSessionArea(page.path))
      throw new Error(`${page.method} ${page.path}: a session page must be under ${SESSION_AREA}`);
    const handlers = page.access === 'guest' ? [guestGuard(ctx)] : [];
    router[page.method](page.path, ...handlers, pageHandler(page, ctx));
  }
}

const inSessionArea = (path: string) =>
  path === SESSION_AREA || path.startsWith(`${SESSION_AREA}/`);

function pageHandler(page: AnyPage, ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    const render = page.template
      ? (data: Templates[TemplateName], options: { status?: number } = {}) =>
          renderDeclared(req, res, ctx, page, data, options.status ?? 200)
      : undefined;
    const session = page.access === 'session' ? res.locals.dashboard : undefined;
    if (page.access === 'session' && !session)
      throw new Error(`${page.method} ${page.path}: no session (requireSession did not run)`);
    const input = { req, res, next, params: req.params, session, render };
    const handler = page.handler as (input: unknown, ctx: AppContext) => unknown;
    await handler(input, ctx);
  };
}

function renderDeclared(
  req: Request,
  res: Response,
  ctx: AppContext,
  page: AnyPage,
  data: Templates[TemplateName],
  status: number,
): Promise<void> {
  const template = page.template!;
  const titleOf = page.title as string | ((data: unknown) => string) | undefined;
  const title = typeof titleOf === 'function' ? titleOf(data) : (titleOf ?? '');
  if (page.access === 'session') return sendAppPage(req, res, { status, template, title }, data);
  const chrome = { csrfToken: guestCsrfToken(req, res, ctx.urls.base), flash: takeFlash(req, res) };
  return sendPage(res, status, template, title, chrome, data);
}

/** Signed-out pages: never cached; a state change carries the guest CSRF token (double submit). */
function guestGuard(ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    setNoStore(res);
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    if (req.is('application/x-www-form-urlencoded')) await runMiddleware(formBody, req, res);
    const presented = (req.body as { _csrf?: unknown } | undefined)?._csrf;
    if (guestCsrfMatches(req, presented)) return next();
    const chrome = { csrfToken: renewGuestCsrfToken(res, ctx.urls.base) };
    const lines = ['The form expired. Go back, reload the page and try again.'];
    return sendPage(res, 403, 'message', 'Request refused', chrome, { lines, error: true });
  };
}
