import express, { type Response } from 'express';
import { z } from 'zod';
import { constantTimeEqual, randomToken } from '../../domain/accounts/secrets';
import { findSession, SESSION_TTL_MS, signIn, signOut } from '../../domain/accounts/sessions';
import { LOGIN_CSRF_COOKIE, readCookie, SESSION_COOKIE } from '../cookies';
import { HttpError } from '../http-error';
import { clientAddress } from '../ingest/client-address';
import { homePage, loginPage } from '../pages/login-page';
import { defineRoute, type RouteContext } from '../routing/define-route';
import { runMiddleware } from '../run-middleware';

const loginBody = z
  .object({
    email: z.string().max(320),
    password: z.string().max(1024),
    _csrf: z.string().describe('the hidden value of the sign-in form'),
  })
  .meta({ id: 'LoginForm' });

const logoutBody = z
  .object({
    _csrf: z.string().optional().describe('or the `X-CSRF-Token` header, or a same-origin Origin'),
  })
  .meta({ id: 'LogoutForm' });

const signedOutSchema = z
  .object({ ok: z.literal(true), message: z.literal('signed out') })
  .meta({ id: 'SignedOut' });

const formBody = express.urlencoded({ extended: false, limit: '16kb' });
const FORM_BODY = ['application/x-www-form-urlencoded'];
const loginPageAnswer = (description: string) => ({ description, content: 'text/html' });

const cookieOptions = (ctx: RouteContext, maxAge: number) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: ctx.urls.base.startsWith('https://'),
  path: '/',
  maxAge,
});

/** The sign-in page with a fresh CSRF cookie, and an optional message. */
function loginAnswer<S extends number>(
  res: Response,
  ctx: RouteContext,
  status: S,
  error?: string,
) {
  const csrf = randomToken(24);
  res.cookie(LOGIN_CSRF_COOKIE, csrf, cookieOptions(ctx, 3600_000));
  return { status, content: loginPage(csrf, error) };
}

/** Dashboard sessions (docs/api-conventions.md, Authentication and scopes): the sign-in form, sign-in, sign-out and a landing page. */
export const sessionRoutes = [
  defineRoute({
    method: 'get',
    path: '/',
    operationId: 'homePage',
    tag: 'Dashboard',
    summary: 'Landing page',
    access: 'public',
    responses: { 200: loginPageAnswer('the page') },
    errors: [],
  }).handle(async ({ req }) => {
    const token = readCookie(req.headers.cookie, SESSION_COOKIE);
    const session = token ? await findSession(req.em, token) : null;
    return {
      status: 200,
      content: homePage(session && { accountId: session.accountId, csrfToken: session.csrfToken }),
    };
  }),
  defineRoute({
    method: 'get',
    path: '/login',
    operationId: 'loginPage',
    tag: 'Dashboard',
    summary: 'Sign-in form',
    access: 'public',
    responses: { 200: loginPageAnswer('the form') },
    errors: [],
  }).handle(({ res }, ctx) => loginAnswer(res, ctx, 200)),
  defineRoute({
    method: 'post',
    path: '/login',
    operationId: 'signIn',
    tag: 'Dashboard',
    summary: 'Sign in',
    description:
      `Sets the \`${SESSION_COOKIE}\` cookie (HttpOnly, SameSite=Lax, Secure over HTTPS) and ` +
      'redirects to `/`. A wrong password answers 401 and an expired form 403, both as the ' +
      'sign-in page with a message. After too many failed sign-ins from one address or for ' +
      'one e-mail in 15 minutes it answers 429 (`rate_limited`) with `Retry-After`, also as ' +
      'the sign-in page with a message, without checking the password.',
    access: 'public',
    body: { schema: loginBody, mediaTypes: FORM_BODY, required: true, readByHandler: true },
    responses: {
      303: {
        description: 'signed in',
        redirect: true,
        headers: { Location: '/', 'Set-Cookie': `${SESSION_COOKIE}=…` },
      },
      401: loginPageAnswer('wrong e-mail or password: the sign-in form'),
      403: loginPageAnswer('the sign-in form expired: the sign-in form'),
      429: {
        ...loginPageAnswer('`rate_limited`, too many failed sign-ins: the sign-in form'),
        headers: { 'Retry-After': 'seconds to wait' },
      },
    },
    errors: ['payload_too_large', 'unsupported_media_type'],
  }).handle(async ({ req, res }, ctx) => {
    await runMiddleware(formBody, req, res);
    const body = loginBody.safeParse(req.body ?? {});
    const expected = readCookie(req.headers.cookie, LOGIN_CSRF_COOKIE);
    if (!body.success || !expected || !constantTimeEqual(body.data._csrf, expected)) {
      return loginAnswer(res, ctx, 403, 'The sign-in form expired. Please try again.');
    }
    const result = await signIn(req.em, {
      email: body.data.email,
      password: body.data.password,
      clientAddress: clientAddress(req),
    });
    if (result.kind === 'throttled') {
      const minutes = Math.ceil(result.retryAfterSeconds / 60);
      const page = loginAnswer(
        res,
        ctx,
        429,
        `Too many failed sign-ins. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      );
      return { ...page, headers: { 'Retry-After': String(result.retryAfterSeconds) } };
    }
    if (result.kind === 'refused') return loginAnswer(res, ctx, 401, 'Wrong e-mail or password.');
    res.clearCookie(LOGIN_CSRF_COOKIE, { path: '/' });
    res.cookie(SESSION_COOKIE, result.token, cookieOptions(ctx, SESSION_TTL_MS));
    return { status: 303, redirect: '/' };
  }),
  defineRoute({
    method: 'post',
    path: '/logout',
    operationId: 'signOut',
    tag: 'Dashboard',
    summary: 'Sign out',
    description:
      'Ends the session. Needs the session CSRF token (field `_csrf` or header ' +
      '`X-CSRF-Token`) or a same-origin `Origin`.',
    access: 'public',
    body: { schema: logoutBody, mediaTypes: FORM_BODY, required: false, readByHandler: true },
    responses: {
      303: { description: 'signed out', redirect: true, headers: { Location: '/login' } },
      200: { description: 'signed out (when `Accept` prefers JSON)', body: signedOutSchema },
    },
    errors: ['forbidden', 'payload_too_large', 'unsupported_media_type'],
  }).handle(async ({ req, res }, ctx) => {
    await runMiddleware(formBody, req, res);
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
      return { status: 200, body: { ok: true, message: 'signed out' } };
    return { status: 303, redirect: '/login' };
  }),
];
