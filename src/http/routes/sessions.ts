import express from 'express';
import { z } from 'zod';
import { constantTimeEqual } from '../../domain/accounts/secrets';
import { findSession, signIn, signOut } from '../../domain/accounts/sessions';
import {
  clearCookieOptions,
  readSessionCookie,
  SESSION_COOKIE,
  sessionCookieName,
  setSessionCookie,
} from '../cookies';
import { setFlash } from '../dashboard/flash';
import { guestCsrfMatches, renewGuestCsrfToken } from '../dashboard/guest-csrf';
import { guestPageKind } from '../dashboard/guest-page';
import type { Templates } from '../dashboard/templates';
import { sameSitePath } from '../dashboard/next-path';
import { HttpError } from '../http-error';
import { clientAddress } from '../ingest/client-address';
import { defineRoute } from '../routing/define-route';
import { runMiddleware } from '../run-middleware';

const loginBody = z
  .object({
    email: z.string().max(320),
    password: z.string().max(1024),
    _csrf: z.string().describe('the hidden value of the sign-in form'),
    next: z
      .string()
      .max(2048)
      .optional()
      .describe('where to go once signed in: a path of this site (others are ignored)'),
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

export const formBody = express.urlencoded({ extended: false, limit: '16kb' });
export const FORM_BODY = ['application/x-www-form-urlencoded'];
export const htmlPage = (description: string) => ({ description, content: 'text/html' });

const loginPage = guestPageKind({ template: 'login', title: 'Sign in' });
const homePage = guestPageKind({ template: 'home', title: 'Formward' });

/** Dashboard sessions (docs/api-conventions.md, Authentication and scopes): the sign-in form, sign-in, sign-out and a landing page. */
export const sessionRoutes = [
  defineRoute({
    method: 'get',
    path: '/',
    operationId: 'homePage',
    tag: 'Dashboard',
    summary: 'Landing page',
    description: 'Signed in, redirects to the dashboard (`/app`).',
    access: 'public',
    responses: {
      200: htmlPage('the page'),
      303: { description: 'signed in', redirect: true, headers: { Location: '/app' } },
    },
    errors: [],
  }).handle(async ({ req, res }, ctx) => {
    const token = readSessionCookie(req.headers.cookie, ctx.urls.base);
    if (token && (await findSession(req.em, token, ctx.accounts.sessions)))
      return { status: 303, redirect: '/app' };
    return homePage(req, res, ctx.urls.base, 200);
  }),
  defineRoute({
    method: 'get',
    path: '/login',
    operationId: 'loginPage',
    tag: 'Dashboard',
    summary: 'Sign-in form',
    access: 'public',
    query: z.object({
      next: z.string().max(2048).optional().describe('a path of this site to return to'),
    }),
    responses: { 200: htmlPage('the form') },
    errors: [],
  }).handle(({ req, res, query }, ctx) =>
    loginPage(req, res, ctx.urls.base, 200, { next: sameSitePath(query.next, ctx.urls.base) }),
  ),
  defineRoute({
    method: 'post',
    path: '/login',
    operationId: 'signIn',
    tag: 'Dashboard',
    summary: 'Sign in',
    description:
      `Sets the \`${SESSION_COOKIE}\` cookie (HttpOnly, SameSite=Lax; over HTTPS Secure and ` +
      `named \`__Host-${SESSION_COOKIE}\`) and ` +
      'redirects to `next` when it is a path of this site, else to `/`. A wrong password ' +
      'answers 401; an expired form, or an account whose e-mail address is not confirmed yet ' +
      '(with a form to send a new link), 403; both as the sign-in page with a message. After ' +
      'too many failed sign-ins from one address or for one e-mail in 15 minutes it answers ' +
      '429 (`rate_limited`) with `Retry-After`, also as the sign-in page with a message, ' +
      'without checking the password.',
    access: 'public',
    body: { schema: loginBody, mediaTypes: FORM_BODY, required: true, readByHandler: true },
    responses: {
      303: {
        description: 'signed in',
        redirect: true,
        headers: { Location: '`next`, or /', 'Set-Cookie': `${SESSION_COOKIE}=…` },
      },
      401: htmlPage('wrong e-mail or password: the sign-in form'),
      403: htmlPage('the sign-in form expired, or the e-mail is not confirmed: the sign-in form'),
      429: {
        ...htmlPage('`rate_limited`, too many failed sign-ins: the sign-in form'),
        headers: { 'Retry-After': 'seconds to wait' },
      },
    },
    errors: ['payload_too_large', 'unsupported_media_type'],
  }).handle(async ({ req, res }, ctx) => {
    await runMiddleware(formBody, req, res);
    const body = loginBody.safeParse(req.body ?? {});
    const base = ctx.urls.base;
    const next = sameSitePath(body.data?.next, base);
    if (!body.success || !guestCsrfMatches(req, body.data._csrf)) {
      renewGuestCsrfToken(res, base);
      return loginPage(req, res, base, 403, {
        next,
        error: 'The sign-in form expired. Please try again.',
      });
    }
    const { email, password } = body.data;
    const result = await signIn(req.em, { email, password, clientAddress: clientAddress(req) });
    const again = <S extends number>(status: S, data: Partial<Templates['login']>) =>
      loginPage(req, res, base, status, { next, email, ...data });
    if (result.kind === 'throttled') {
      const minutes = Math.ceil(result.retryAfterSeconds / 60);
      const page = await again(429, {
        error: `Too many failed sign-ins. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      });
      return { ...page, headers: { 'Retry-After': String(result.retryAfterSeconds) } };
    }
    if (result.kind === 'refused') return again(401, { error: 'Wrong e-mail or password.' });
    if (result.kind === 'unconfirmed') {
      return again(403, {
        error: 'Please confirm your e-mail address first: follow the link we sent you.',
        unconfirmed: true,
      });
    }
    setSessionCookie(res, base, result.token);
    return { status: 303, redirect: next ?? '/' };
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
    const token = readSessionCookie(req.headers.cookie, ctx.urls.base);
    const session = token ? await findSession(req.em, token, ctx.accounts.sessions) : null;
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
    res.clearCookie(sessionCookieName(ctx.urls.base), clearCookieOptions(ctx.urls.base));
    if (req.accepts(['html', 'json']) === 'json')
      return { status: 200, body: { ok: true, message: 'signed out' } };
    setFlash(res, ctx.urls.base, 'signed_out');
    return { status: 303, redirect: '/login' };
  }),
];
