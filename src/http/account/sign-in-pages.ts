import { z } from 'zod';
import { constantTimeEqual } from '../../domain/accounts/secrets';
import { findSession, signIn, signOut } from '../../domain/accounts/sessions';
import {
  clearCookieOptions,
  readSessionCookie,
  SESSION_COOKIE,
  sessionCookieName,
  setSessionCookie,
} from '../kit/session/cookies';
import { HttpError } from '../kit/errors/http-error';
import { clientAddress } from '../kit/middleware/client-address';
import { definePage } from '../kit/routing/define-page';
import { setFlash } from '../kit/session/flash';
import { readGuestFormBody } from '../kit/session/guest-form';
import { sameSitePath } from './next-path';
import { htmlPage } from '../kit/routing/page-operations';

const loginQuery = z.object({
  next: z.string().max(2048).optional().describe('a path of this site to return to'),
});

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

/**
 * Dashboard sessions (docs/api-conventions.md, Authentication and scopes): a landing page,
 * the sign-in form, sign-in and sign-out.
 */
export const signInPages = [
  definePage({
    method: 'get',
    path: '/',
    access: 'guest',
    template: 'home',
    title: 'Formward',
    document: {
      operationId: 'homePage',
      summary: 'Landing page',
      description: 'Signed in, redirects to the dashboard (`/app`).',
      responses: {
        200: htmlPage('the page'),
        303: { description: 'signed in', redirect: true, headers: { Location: '/app' } },
      },
      errors: [],
    },
  }).handle(async ({ req, res, render }, ctx) => {
    const token = readSessionCookie(req.headers.cookie, ctx.urls.base);
    if (token && (await findSession(req.em, token, ctx.accounts.sessions)))
      return res.redirect(303, '/app');
    await render({});
  }),

  definePage({
    method: 'get',
    path: '/login',
    access: 'guest',
    template: 'login',
    title: 'Sign in',
    query: loginQuery,
    document: {
      operationId: 'loginPage',
      summary: 'Sign-in form',
      responses: { 200: htmlPage('the form') },
      errors: [],
    },
  }).handle(({ query, render }, ctx) =>
    render({ next: sameSitePath(query.next, ctx.urls.base), sso: ctx.accounts.oidc?.name }),
  ),

  definePage({
    method: 'post',
    path: '/login',
    audit: { action: 'session.signed_in', target: 'user' },
    access: 'guest',
    template: 'login',
    title: 'Sign in',
    form: loginBody,
    // An expired form answers the sign-in page again, keeping where to go once signed in.
    refused: ({ form, render }, ctx) =>
      render(
        {
          next: sameSitePath(form?.next, ctx.urls.base),
          error: 'The sign-in form expired. Please try again.',
          sso: ctx.accounts.oidc?.name,
        },
        { status: 403 },
      ),
    document: {
      operationId: 'signIn',
      summary: 'Sign in',
      description:
        `Sets the \`${SESSION_COOKIE}\` cookie (HttpOnly, SameSite=Lax; over HTTPS Secure and ` +
        `named \`__Host-${SESSION_COOKIE}\`) and ` +
        'redirects to `next` when it is a path of this site, else to `/`. A wrong password ' +
        'answers 401; an expired form, or an account whose e-mail address is not confirmed yet ' +
        '(with a form to send a new link), or a user who belongs to no account any more, 403; all as the sign-in page with a message. After ' +
        'too many failed sign-ins from one address or for one e-mail in 15 minutes it answers ' +
        '429 (`rate_limited`) with `Retry-After`, also as the sign-in page with a message, ' +
        'without checking the password.',
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
    },
  }).handle(async ({ req, res, form, render, audit }, ctx) => {
    const base = ctx.urls.base;
    const { email, password } = form;
    const next = sameSitePath(form.next, base);
    const result = await signIn(req.em, { email, password, clientAddress: clientAddress(req) });
    const again = (status: number, data: { error: string; unconfirmed?: true }) =>
      render({ next, email, sso: ctx.accounts.oidc?.name, ...data }, { status });
    if (result.kind === 'throttled') {
      const minutes = Math.ceil(result.retryAfterSeconds / 60);
      res.set('Retry-After', String(result.retryAfterSeconds));
      return again(429, {
        error: `Too many failed sign-ins. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      });
    }
    if (result.kind === 'refused') return again(401, { error: 'Wrong e-mail or password.' });
    if (result.kind === 'unconfirmed') {
      return again(403, {
        error: 'Please confirm your e-mail address first: follow the link we sent you.',
        unconfirmed: true,
      });
    }
    if (result.kind === 'no_account') {
      return again(403, {
        error: 'This address belongs to no account any more: every account it was in was deleted.',
      });
    }
    const { userId, accountId } = result.session;
    Object.assign(audit, { actor: { userId, accountId }, targetId: userId });
    setSessionCookie(res, base, result.token);
    res.redirect(303, next ?? '/');
  }),

  definePage({
    method: 'post',
    path: '/logout',
    audit: { action: 'session.signed_out', target: 'user' },
    access: 'guest',
    // The session's CSRF token, checked here, not the signed-out forms' one.
    guestCsrf: false,
    document: {
      operationId: 'signOut',
      summary: 'Sign out',
      description:
        'Ends the session. Needs the session CSRF token (field `_csrf` or header ' +
        '`X-CSRF-Token`) or a same-origin `Origin`.',
      body: { schema: logoutBody, required: false },
      responses: {
        303: { description: 'signed out', redirect: true, headers: { Location: '/login' } },
        200: { description: 'signed out (when `Accept` prefers JSON)', body: signedOutSchema },
      },
      errors: ['forbidden', 'payload_too_large', 'unsupported_media_type'],
    },
  }).handle(async ({ req, res, audit }, ctx) => {
    await readGuestFormBody(req, res);
    const token = readSessionCookie(req.headers.cookie, ctx.urls.base);
    const session = token ? await findSession(req.em, token, ctx.accounts.sessions) : null;
    if (token && session) {
      const presented = (req.body?._csrf as string | undefined) ?? req.get('x-csrf-token') ?? '';
      const sameOrigin = req.get('origin') === new URL(ctx.urls.base).origin;
      if (!sameOrigin && !constantTimeEqual(presented, session.csrfToken)) {
        throw new HttpError(
          'forbidden',
          'signing out needs the CSRF token or a same-origin request',
        );
      }
      await signOut(req.em, token);
      const { userId, accountId } = session;
      Object.assign(audit, { actor: { userId, accountId }, targetId: userId });
    }
    res.clearCookie(sessionCookieName(ctx.urls.base), clearCookieOptions(ctx.urls.base));
    if (req.accepts(['html', 'json']) === 'json')
      return res.status(200).json(signedOutSchema.parse({ ok: true, message: 'signed out' }));
    setFlash(res, ctx.urls.base, 'signed_out');
    res.redirect(303, '/login');
  }),
];
