import type { Request, RequestHandler, Response, Router } from 'express';
import type { AppContext } from '../../../runtime/app-context';
import { setNoStore } from '../middleware/no-store';
import { markOperation, methodNotAllowed } from './register-routes';
import { parseOrThrow } from './validate';
import { roleAllows } from '../../../domain/accounts/member-roles';
import { sendAppPage } from '../chrome/app-page';
import type { AnyPage, RenderOptions } from './define-page';
import { renewGuestCsrfToken } from '../session/guest-csrf';
import { checkGuestForm, readGuestFormBody } from '../session/guest-form';
import { sendGuestPage } from '../chrome/guest-page';
import { pageAudit } from './page-audit';
import { pageOperation } from './page-operations';
import { sendPage } from '../chrome/send-page';
import { sessionOf, type DashboardSession } from '../session/session-guard';
import type { TemplateName, Templates } from '../chrome/template-data';

/** Where the signed-in pages live: dashboardRouter checks the session (and CSRF) there. */
export const SESSION_AREA = '/app';

/**
 * Adds the pages to the dashboard's router, in the list's order (a fixed path such as
 * `/app/forms/new` before `/app/forms/:id`). A `session` page must sit under SESSION_AREA,
 * where requireSession already ran: a page declared elsewhere fails at start-up rather than
 * open without a session. The path of a documented page, like an API operation's, answers
 * any other method 405 with its `Allow`.
 */
export function registerPages(router: Router, pages: readonly AnyPage[], ctx: AppContext): void {
  const documentedMethods = new Map<string, string[]>();
  for (const page of pages) {
    if (page.enabled && !page.enabled(ctx)) continue;
    if (page.access === 'session' && !inSessionArea(page.path))
      throw new Error(`${page.method} ${page.path}: a session page must be under ${SESSION_AREA}`);
    if ((page.access === 'session') !== (page.need !== undefined))
      throw new Error(
        `${page.method} ${page.path}: a session page, and only one, declares its need`,
      );
    if ((page.form || page.refused) && !checksGuestForm(page))
      throw new Error(`${page.method} ${page.path}: form and refused are for guest posts`);
    router[page.method](page.path, pageHandler(page, ctx));
    if (page.document) {
      const methods = documentedMethods.get(page.path) ?? [];
      documentedMethods.set(page.path, [...methods, page.method.toUpperCase()]);
    }
  }
  for (const [path, methods] of documentedMethods) router.all(path, methodNotAllowed(methods));
}

/** A signed-out post that carries the signed-out forms' CSRF token. */
const checksGuestForm = (page: AnyPage) =>
  page.access === 'guest' && page.method === 'post' && page.guestCsrf !== false;

const inSessionArea = (path: string) =>
  path === SESSION_AREA || path.startsWith(`${SESSION_AREA}/`);

type RenderOf =
  ((data: Templates[TemplateName], options?: RenderOptions) => Promise<void>) | undefined;

function pageHandler(page: AnyPage, ctx: AppContext): RequestHandler {
  // The error handler checks a documented page's errors as it checks an operation's.
  const operation = page.document && pageOperation({ ...page, document: page.document });
  return async (req, res, next) => {
    if (operation) markOperation(res, operation);
    // Signed-out pages carry links' tokens and forms' CSRF tokens: never cached.
    if (page.access === 'guest') setNoStore(res);
    const query = page.query ? parseOrThrow(page.query, req.query, 'query') : undefined;
    const render: RenderOf = page.template
      ? (data, options = {}) => renderDeclared(req, res, ctx, page, data, options)
      : undefined;
    let form: unknown;
    if (checksGuestForm(page)) {
      await readGuestFormBody(req, res);
      const checked = checkGuestForm(req, page.form);
      if (!checked.accepted) {
        const token = renewGuestCsrfToken(res, ctx.urls.base);
        if (!page.refused) return refuse(res, token);
        const refused = page.refused as (input: unknown, ctx: AppContext) => unknown;
        return refused({ req, res, query, form: checked.form, render }, ctx);
      }
      form = checked.form;
    }
    const session = page.access === 'session' ? sessionOf(res) : undefined;
    if (page.access === 'session' && !session)
      throw new Error(`${page.method} ${page.path}: no session (requireSession did not run)`);
    if (session && !roleAllows(session.role, page.need!)) return refuseRole(req, res, session);
    const audit = pageAudit(ctx, req, res, page.audit, session);
    const input = { req, res, next, params: req.params, query, form, session, render, audit };
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
  options: RenderOptions,
): Promise<void> {
  const template = page.template!;
  const titleOf = page.title as string | ((data: unknown) => string) | undefined;
  const title = options.title ?? (typeof titleOf === 'function' ? titleOf(data) : (titleOf ?? ''));
  const status = options.status ?? 200;
  if (page.access === 'session') return sendAppPage(req, res, { status, template, title }, data);
  return sendGuestPage(
    req,
    res,
    ctx.urls.base,
    { status, template, title, altcha: page.altcha },
    data,
  );
}

/** A member whose role does not allow the page: 403, saying which role they hold. */
function refuseRole(req: Request, res: Response, session: DashboardSession): Promise<void> {
  const lines = [
    `Your role in ${session.accountName} is ${session.role}, which does not allow this.`,
    'Ask the account’s owner for another role if you need it.',
  ];
  const link = { href: '/app', label: 'Overview' };
  const page = { status: 403, template: 'message' as const, title: 'Not allowed' };
  return sendAppPage(req, res, page, { lines, link, error: true });
}

/** A guest post refused, on a page with no answer of its own; it carries the renewed token. */
function refuse(res: Response, token: string): Promise<void> {
  const lines = ['The form expired. Go back, reload the page and try again.'];
  return sendPage(
    res,
    403,
    'message',
    'Request refused',
    { csrfToken: token },
    { lines, error: true },
  );
}
