import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { LimitedAction } from '../../domain/accounts/account-rate-limits';
import {
  MIN_PASSWORD_LENGTH,
  newPasswordProblem,
  requestPasswordReset,
  resetPassword,
} from '../../domain/accounts/password-changes';
import {
  confirmEmail,
  resendConfirmation,
  signUp,
  type AccountMailing,
} from '../../domain/accounts/registration';
import { setSessionCookie } from '../cookies';
import { setFlash } from '../dashboard/flash';
import { guestCsrfMatches, renewGuestCsrfToken } from '../dashboard/guest-csrf';
import { guestPage, guestPageKind } from '../dashboard/guest-page';
import { clientAddress } from '../ingest/client-address';
import { defineRoute, type RouteContext } from '../routing/define-route';
import { runMiddleware } from '../run-middleware';
import { FORM_BODY, formBody, htmlPage } from './sessions';

const csrfField = z.string().describe('the hidden value of the form');
const emailField = z.string().max(320);

const signupBody = z
  .object({
    email: emailField,
    password: z.string().max(1024).describe(`at least ${MIN_PASSWORD_LENGTH} characters`),
    name: z.string().max(200).optional().describe('the account name'),
    altcha: z.string().max(8192).optional().describe('the ALTCHA widget’s solved challenge'),
    _csrf: csrfField,
  })
  .meta({ id: 'SignupForm' });
const emailBody = z.object({ email: emailField, _csrf: csrfField }).meta({ id: 'EmailForm' });
const resetBody = z
  .object({ password: z.string().max(1024), _csrf: csrfField })
  .meta({ id: 'ResetForm' });
const tokenQuery = z.object({
  token: z.string().max(200).default('').describe('the token of the e-mailed link'),
});

const POST_ERRORS = ['payload_too_large', 'unsupported_media_type'] as const;
const retryAfter = { 'Retry-After': 'seconds to wait' };
const expiredAnswer = htmlPage('the form expired (no or a wrong `_csrf`): the form again');
const limitedAnswer = {
  ...htmlPage('`rate_limited`: a page saying when to retry'),
  headers: retryAfter,
};
const isEmail = (value: string) => z.email().safeParse(value.trim()).success;

const passwordRule = { minPasswordLength: MIN_PASSWORD_LENGTH };
const signupPage = guestPageKind(
  { template: 'signup', title: 'Sign up', altcha: true },
  passwordRule,
);
const forgotPage = guestPageKind({ template: 'forgot', title: 'Forgot password' });
const resetPage = guestPageKind(
  { template: 'reset', title: 'Choose a new password' },
  passwordRule,
);

/** A message page (`views/message.eta`). */
function messagePage<S extends number>(
  req: Request,
  res: Response,
  ctx: RouteContext,
  status: S,
  title: string,
  lines: string[],
  extra: { link?: { href: string; label: string }; error?: boolean } = {},
) {
  return guestPage(
    req,
    res,
    ctx.urls.base,
    { status, template: 'message', title },
    { lines, ...extra },
  );
}

/** Reads a signed-out form: its fields, or null when its CSRF token is missing or wrong. */
async function readGuestForm<T extends z.ZodObject>(
  req: Request,
  res: Response,
  ctx: RouteContext,
  schema: T,
): Promise<z.output<T> | null> {
  await runMiddleware(formBody, req, res);
  const body = schema.safeParse(req.body ?? {});
  if (body.success && guestCsrfMatches(req, (body.data as { _csrf: string })._csrf))
    return body.data;
  renewGuestCsrfToken(res, ctx.urls.base);
  return null;
}

/** Counts the request against the action's limits; the 429 page when one is exceeded. */
async function overLimit(
  req: Request,
  res: Response,
  ctx: RouteContext,
  action: LimitedAction,
  email?: string,
) {
  const seconds = await ctx.accounts.limits.consume(action, { address: clientAddress(req), email });
  if (seconds === 0) return null;
  const minutes = Math.ceil(seconds / 60);
  const page = await messagePage(
    req,
    res,
    ctx,
    429,
    'Too many requests',
    [`Too many requests. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`],
    { error: true },
  );
  return { ...page, headers: { 'Retry-After': String(seconds) } };
}

const CHECK_EMAIL = (what: string) => [
  `If the address can be used, a message with ${what} is on its way. It can take a minute; look in the spam folder too.`,
];

/** The declaration shared by the two “mail me a link” forms (resend confirmation, forgot). */
const EMAIL_REQUEST = {
  access: 'public',
  body: { schema: emailBody, mediaTypes: FORM_BODY, required: true, readByHandler: true },
  responses: { 200: htmlPage('“check your e-mail”'), 403: expiredAnswer, 429: limitedAnswer },
  errors: [...POST_ERRORS],
} as const;

/**
 * Their handler: CSRF, the action's limits, the domain call, and one answer for every
 * address; an expired form links back to where it came from.
 */
function emailRequest(
  action: LimitedAction,
  what: string,
  deliver: (em: EntityManager, mailing: AccountMailing, email: string) => Promise<void>,
  back: { href: string; label: string },
) {
  return async ({ req, res }: { req: Request; res: Response }, ctx: RouteContext) => {
    const form = await readGuestForm(req, res, ctx, emailBody);
    if (!form) {
      const lines = ['The form expired. Please try again.'];
      return messagePage(req, res, ctx, 403, 'Form expired', lines, { link: back, error: true });
    }
    const limited = await overLimit(req, res, ctx, action, form.email);
    if (limited) return limited;
    await deliver(req.em, ctx.accounts.mailing, form.email);
    return messagePage(req, res, ctx, 200, 'Check your e-mail', CHECK_EMAIL(what));
  };
}

/**
 * The dashboard's account pages (docs/dashboard.md): sign-up with ALTCHA, e-mail
 * confirmation and its resend form, forgot and reset password. Every answer about an
 * address is the same whether or not it has an account.
 */
export const accountRoutes = [
  defineRoute({
    method: 'get',
    path: '/signup',
    operationId: 'signupPage',
    tag: 'Dashboard',
    summary: 'Sign-up form',
    access: 'public',
    responses: { 200: htmlPage('the form, with the ALTCHA widget') },
    errors: [],
  }).handle(({ req, res }, ctx) => signupPage(req, res, ctx.urls.base, 200)),
  defineRoute({
    method: 'post',
    path: '/signup',
    operationId: 'signUp',
    tag: 'Dashboard',
    summary: 'Sign up',
    description:
      'Creates an unconfirmed account and mails a confirmation link. The `altcha` field holds ' +
      'the solved proof-of-work challenge of `GET /signup/challenge` (the ALTCHA widget), ' +
      'which is accepted once. The answer is the same page whether or not the address already ' +
      'has an account (that address gets an e-mail saying so instead). Limited per client ' +
      'address and per e-mail address.',
    access: 'public',
    body: { schema: signupBody, mediaTypes: FORM_BODY, required: true, readByHandler: true },
    responses: {
      200: htmlPage('“check your e-mail”'),
      403: expiredAnswer,
      422: htmlPage('an invalid e-mail, a short password or an unsolved challenge: the form again'),
      429: limitedAnswer,
    },
    errors: [...POST_ERRORS],
  }).handle(async ({ req, res }, ctx) => {
    const form = await readGuestForm(req, res, ctx, signupBody);
    const again = <S extends number>(status: S, error: string) =>
      signupPage(req, res, ctx.urls.base, status, { error, email: form?.email, name: form?.name });
    if (!form) return again(403, 'The form expired. Please try again.');
    const limited = await overLimit(req, res, ctx, 'signup', form.email);
    if (limited) return limited;
    if (!isEmail(form.email) || form.email.includes('\0'))
      return again(422, 'Please enter a valid e-mail address.');
    const problem = newPasswordProblem(form.password);
    if (problem) return again(422, problem);
    if (!(await ctx.accounts.altcha.redeem(req.em, form.altcha)))
      return again(422, 'The anti-robot check was not completed or has expired. Please try again.');
    const name = form.name?.trim() || undefined;
    await signUp(req.em, ctx.accounts.mailing, {
      email: form.email,
      password: form.password,
      name,
    });
    return messagePage(req, res, ctx, 200, 'Check your e-mail', CHECK_EMAIL('a confirmation link'));
  }),
  defineRoute({
    method: 'get',
    path: '/confirm',
    operationId: 'confirmEmail',
    tag: 'Dashboard',
    summary: 'Confirm an e-mail address',
    description: 'The link of the confirmation e-mail; it works once.',
    access: 'public',
    query: tokenQuery,
    responses: {
      303: { description: 'confirmed', redirect: true, headers: { Location: '/login' } },
      400: htmlPage('an unknown, used or expired link'),
    },
    errors: [],
  }).handle(async ({ req, res, query }, ctx) => {
    if (await confirmEmail(req.em, query.token)) {
      setFlash(res, ctx.urls.base, 'email_confirmed');
      return { status: 303, redirect: '/login' };
    }
    return messagePage(
      req,
      res,
      ctx,
      400,
      'Link not valid',
      ['This confirmation link is unknown, expired or already used. Sign in to ask for a new one.'],
      { link: { href: '/login', label: 'Sign in' }, error: true },
    );
  }),
  defineRoute({
    method: 'post',
    path: '/confirm',
    operationId: 'resendConfirmation',
    tag: 'Dashboard',
    summary: 'Send a new confirmation link',
    description:
      'Mails a new confirmation link when the address has an unconfirmed account; the answer ' +
      'is the same in every case. Limited per client address and per e-mail address.',
    ...EMAIL_REQUEST,
  }).handle(
    emailRequest('resend', 'a new confirmation link', resendConfirmation, {
      href: '/login',
      label: 'Sign in',
    }),
  ),
  defineRoute({
    method: 'get',
    path: '/forgot',
    operationId: 'forgotPage',
    tag: 'Dashboard',
    summary: 'Forgot-password form',
    access: 'public',
    responses: { 200: htmlPage('the form') },
    errors: [],
  }).handle(({ req, res }, ctx) => forgotPage(req, res, ctx.urls.base, 200)),
  defineRoute({
    method: 'post',
    path: '/forgot',
    operationId: 'requestPasswordReset',
    tag: 'Dashboard',
    summary: 'Ask for a password reset link',
    description:
      'Mails a reset link (valid one hour, once) when the address has an account; the answer ' +
      'is the same in every case. Limited per client address and per e-mail address.',
    ...EMAIL_REQUEST,
  }).handle(
    emailRequest('forgot', 'a password reset link', requestPasswordReset, {
      href: '/forgot',
      label: 'Forgot password',
    }),
  ),
  defineRoute({
    method: 'get',
    path: '/reset',
    operationId: 'resetPage',
    tag: 'Dashboard',
    summary: 'New-password form',
    description: 'The link of the reset e-mail.',
    access: 'public',
    query: tokenQuery,
    responses: { 200: htmlPage('the form') },
    errors: [],
  }).handle(({ req, res, query }, ctx) =>
    resetPage(req, res, ctx.urls.base, 200, { token: query.token }),
  ),
  defineRoute({
    method: 'post',
    path: '/reset',
    operationId: 'resetPassword',
    tag: 'Dashboard',
    summary: 'Set a new password',
    description:
      'Sets the password through the e-mailed token (once), signs out every session of the ' +
      'account’s user and signs in a new one, which goes to the account’s API keys (with who ' +
      'created each and when it was last used) to revoke any not recognised. Limited per ' +
      'client address.',
    access: 'public',
    query: tokenQuery,
    body: { schema: resetBody, mediaTypes: FORM_BODY, required: true, readByHandler: true },
    responses: {
      303: {
        description: 'changed and signed in',
        redirect: true,
        headers: { Location: '/app/keys', 'Set-Cookie': 'the session cookie' },
      },
      400: htmlPage('an unknown, used or expired link; or a short password: the form again'),
      403: expiredAnswer,
      429: limitedAnswer,
    },
    errors: [...POST_ERRORS],
  }).handle(async ({ req, res, query }, ctx) => {
    const form = await readGuestForm(req, res, ctx, resetBody);
    const again = <S extends number>(status: S, error: string) =>
      resetPage(req, res, ctx.urls.base, status, { error, token: query.token });
    if (!form) return again(403, 'The form expired. Please try again.');
    const limited = await overLimit(req, res, ctx, 'reset');
    if (limited) return limited;
    const problem = newPasswordProblem(form.password);
    if (problem) return again(400, problem);
    const opened = await resetPassword(req.em, query.token, form.password);
    if (!opened) {
      return messagePage(
        req,
        res,
        ctx,
        400,
        'Link not valid',
        ['This reset link is unknown, expired or already used. Ask for a new one.'],
        { link: { href: '/forgot', label: 'Forgot password' }, error: true },
      );
    }
    // Signed in, straight to the account's API keys: keys outlive a password, so whoever
    // reset it because someone else had it sees what that person may have left behind.
    setSessionCookie(res, ctx.urls.base, opened.token);
    setFlash(res, ctx.urls.base, 'password_reset');
    return { status: 303, redirect: '/app/keys' };
  }),
];
