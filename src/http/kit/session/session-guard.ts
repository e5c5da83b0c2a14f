import type { Request, RequestHandler, Response } from 'express';
import express from 'express';
import { MEMBER_ROLE_SCOPES, type MemberRole } from '../../../domain/accounts/member-roles';
import type { Scope } from '../../../domain/accounts/scopes';
import { constantTimeEqual } from '../../../domain/accounts/secrets';
import { findSession, findSessionHolder } from '../../../domain/accounts/sessions';
import { readSessionCookie } from './cookies';
import type { AppContext } from '../../../runtime/app-context';
import { runMiddleware } from '../middleware/run-middleware';
import { sendPage } from '../chrome/send-page';

/** The signed-in person of a dashboard request (set by requireSession). */
export type DashboardSession = {
  sessionId: string;
  userId: string;
  accountId: string;
  csrfToken: string;
  email: string;
  accountName: string;
  /** The user's role in the account now (read on every request). */
  role: MemberRole;
  /** What that role may do, as a key's scopes. */
  scopes: ReadonlySet<Scope>;
};

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const formBody = express.urlencoded({ extended: false, limit: '64kb' });

export function sessionOf(res: Response): DashboardSession {
  return res.locals.dashboard as DashboardSession;
}

/**
 * `/app` and below: a valid session, else 303 to `/login?next=<this path>`. Then, for every
 * state change, the session's CSRF token as the form field `_csrf` or the `X-CSRF-Token`
 * header (htmx sends the header, from `hx-headers` on <body>); without it, 403 and a page.
 */
export function requireSession(ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    const session = await currentSession(req, ctx);
    if (!session) {
      const target = `/login?next=${encodeURIComponent(req.originalUrl)}`;
      return res.redirect(303, target);
    }
    res.locals.dashboard = session;
    if (!SAFE_METHODS.has(req.method)) {
      if (req.is('application/x-www-form-urlencoded')) await runMiddleware(formBody, req, res);
      const presented =
        (req.body as { _csrf?: unknown } | undefined)?._csrf ?? req.get('x-csrf-token');
      if (typeof presented !== 'string' || !constantTimeEqual(presented, session.csrfToken)) {
        const lines = [
          'This request did not carry the page’s security token, so it was refused.',
          'Go back, reload the page and try again.',
        ];
        const chrome = { csrfToken: session.csrfToken, user: session };
        return sendPage(res, 403, 'message', 'Request refused', chrome, { lines, error: true });
      }
    }
    next();
  };
}

/** The session of the request's cookie with its user and account, or null. */
export async function currentSession(
  req: Request,
  ctx: Pick<AppContext, 'urls' | 'accounts'>,
): Promise<DashboardSession | null> {
  const token = readSessionCookie(req.headers.cookie, ctx.urls.base);
  const session = token ? await findSession(req.em, token, ctx.accounts.sessions) : null;
  if (!session) return null;
  const { email, accountName } = await findSessionHolder(req.em, session);
  return {
    sessionId: session.id,
    userId: session.userId,
    accountId: session.accountId,
    csrfToken: session.csrfToken,
    email,
    accountName,
    role: session.role,
    scopes: new Set(MEMBER_ROLE_SCOPES[session.role]),
  };
}
