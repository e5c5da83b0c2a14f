import express, { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { constantTimeEqual, randomToken } from '../../domain/accounts/secrets';
import { findSession, SESSION_TTL_MS, signIn, signOut } from '../../domain/accounts/sessions';
import { LOGIN_CSRF_COOKIE, readCookie, SESSION_COOKIE } from '../cookies';
import { HttpError } from '../http-error';
import { methodNotAllowed } from '../middleware/errors';
import { homePage, loginPage } from '../pages/login-page';

const loginBody = z.object({
  email: z.string().max(320),
  password: z.string().max(1024),
  _csrf: z.string(),
});

/** Dashboard sessions (decisions §4): the sign-in form, sign-in, sign-out and a landing page. */
export function sessionsRouter(ctx: AppContext): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '16kb' });
  const secure = () => ctx.urls.base.startsWith('https://');

  const cookieOptions = (maxAge: number) => ({
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: secure(),
    path: '/',
    maxAge,
  });

  const renderLogin = (res: Response, status: number, error?: string) => {
    const csrf = randomToken(24);
    res.cookie(LOGIN_CSRF_COOKIE, csrf, cookieOptions(3600_000));
    res.status(status).type('html').send(loginPage(csrf, error));
  };

  router
    .route('/')
    .get(async (req, res) => {
      const token = readCookie(req.headers.cookie, SESSION_COOKIE);
      const session = token ? await findSession(req.em, token) : null;
      res
        .type('html')
        .send(homePage(session && { accountId: session.accountId, csrfToken: session.csrfToken }));
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/login')
    .get((_req, res) => renderLogin(res, 200))
    .post(form, async (req, res) => {
      const body = loginBody.safeParse(req.body ?? {});
      const expected = readCookie(req.headers.cookie, LOGIN_CSRF_COOKIE);
      if (!body.success || !expected || !constantTimeEqual(body.data._csrf, expected)) {
        return renderLogin(res, 403, 'The sign-in form expired. Please try again.');
      }
      const result = await signIn(req.em, body.data.email, body.data.password);
      if (!result) return renderLogin(res, 401, 'Wrong e-mail or password.');
      res.clearCookie(LOGIN_CSRF_COOKIE, { path: '/' });
      res.cookie(SESSION_COOKIE, result.token, cookieOptions(SESSION_TTL_MS));
      res.redirect(303, '/');
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/logout')
    .post(form, async (req: Request, res) => {
      const token = readCookie(req.headers.cookie, SESSION_COOKIE);
      const session = token ? await findSession(req.em, token) : null;
      if (token && session) {
        const presented = (req.body?._csrf as string | undefined) ?? req.get('x-csrf-token') ?? '';
        const sameOrigin = req.get('origin') === new URL(ctx.urls.base).origin;
        if (!sameOrigin && !constantTimeEqual(presented, session.csrfToken)) {
          throw new HttpError(
            403,
            'forbidden',
            'signing out needs the CSRF token or a same-origin request',
          );
        }
        await signOut(req.em, token);
      }
      res.clearCookie(SESSION_COOKIE, { path: '/' });
      if (req.accepts(['html', 'json']) === 'json')
        return void res.json({ ok: true, message: 'signed out' });
      res.redirect(303, '/login');
    })
    .all(methodNotAllowed(['POST']));

  return router;
}
