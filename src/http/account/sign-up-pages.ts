import { z } from 'zod';
import { MIN_PASSWORD_LENGTH, newPasswordProblem } from '../../domain/accounts/password-changes';
import { confirmEmail, resendConfirmation, signUp } from '../../domain/accounts/registration';
import { definePage } from '../kit/routing/define-page';
import { setFlash } from '../kit/session/flash';
import { sendGuestPage } from '../kit/chrome/guest-page';
import { htmlPage } from '../kit/routing/page-operations';
import {
  answeredTooMany,
  CHECK_EMAIL,
  csrfField,
  emailField,
  emailRequestPage,
  expiredAnswer,
  FORM_EXPIRED,
  limitedAnswer,
  POST_ERRORS,
  tokenQuery,
} from './account-requests-pages';

const signupBody = z
  .object({
    email: emailField,
    password: z.string().max(1024).describe(`at least ${MIN_PASSWORD_LENGTH} characters`),
    name: z.string().max(200).optional().describe('the account name'),
    altcha: z.string().max(8192).optional().describe('the ALTCHA widget’s solved challenge'),
    _csrf: csrfField,
  })
  .meta({ id: 'SignupForm' });

const isEmail = (value: string) => z.email().safeParse(value.trim()).success;

/**
 * Sign-up with ALTCHA (docs/dashboard.md), e-mail confirmation and its resend form. The
 * answer to a sign-up is the same whether or not the address has an account.
 */
export const signUpPages = [
  definePage({
    method: 'get',
    path: '/signup',
    access: 'guest',
    template: 'signup',
    title: 'Sign up',
    altcha: true,
    document: {
      operationId: 'signupPage',
      summary: 'Sign-up form',
      responses: { 200: htmlPage('the form, with the ALTCHA widget') },
      errors: [],
    },
  }).handle(({ render }, ctx) =>
    render({ minPasswordLength: MIN_PASSWORD_LENGTH, sso: ctx.accounts.oidc?.name }),
  ),

  definePage({
    method: 'post',
    path: '/signup',
    audit: { action: 'account.created', target: 'account' },
    access: 'guest',
    template: 'signup',
    title: 'Sign up',
    altcha: true,
    form: signupBody,
    refused: ({ render }) =>
      render({ minPasswordLength: MIN_PASSWORD_LENGTH, error: FORM_EXPIRED }, { status: 403 }),
    document: {
      operationId: 'signUp',
      summary: 'Sign up',
      description:
        'Creates an unconfirmed account and mails a confirmation link. The `altcha` field holds ' +
        'the solved proof-of-work challenge of `GET /signup/challenge` (the ALTCHA widget), ' +
        'which is accepted once. The answer is the same page whether or not the address already ' +
        'has an account (that address gets an e-mail saying so instead). Limited per client ' +
        'address and per e-mail address.',
      responses: {
        200: htmlPage('“check your e-mail”'),
        403: expiredAnswer,
        422: htmlPage(
          'an invalid e-mail, a short password or an unsolved challenge: the form again',
        ),
        429: limitedAnswer,
      },
      errors: [...POST_ERRORS],
    },
  }).handle(async ({ req, res, form, render, audit }, ctx) => {
    const again = (error: string) =>
      render(
        { minPasswordLength: MIN_PASSWORD_LENGTH, error, email: form.email, name: form.name },
        { status: 422 },
      );
    if (await answeredTooMany(req, res, ctx, 'signup', form.email)) return;
    if (!isEmail(form.email) || form.email.includes('\0'))
      return again('Please enter a valid e-mail address.');
    const problem = newPasswordProblem(form.password);
    if (problem) return again(problem);
    if (!(await ctx.accounts.altcha.redeem(req.em, form.altcha)))
      return again('The anti-robot check was not completed or has expired. Please try again.');
    const name = form.name?.trim() || undefined;
    const created = await signUp(req.em, ctx.accounts.mailing, {
      email: form.email,
      password: form.password,
      name,
    });
    if (created) Object.assign(audit, { actor: created, targetId: created.accountId });
    const page = { template: 'message' as const, title: 'Check your e-mail' };
    await sendGuestPage(req, res, ctx.urls.base, page, {
      lines: CHECK_EMAIL('a confirmation link'),
    });
  }),

  definePage({
    method: 'get',
    path: '/confirm',
    audit: { action: 'user.email_confirmed', target: 'user' },
    access: 'guest',
    template: 'message',
    title: 'Link not valid',
    query: tokenQuery,
    document: {
      operationId: 'confirmEmail',
      summary: 'Confirm an e-mail address',
      description: 'The link of the confirmation e-mail; it works once.',
      responses: {
        303: { description: 'confirmed', redirect: true, headers: { Location: '/login' } },
        400: htmlPage('an unknown, used or expired link'),
      },
      errors: [],
    },
  }).handle(async ({ req, res, query, render, audit }, ctx) => {
    const confirmed = await confirmEmail(req.em, query.token);
    if (confirmed) {
      if (confirmed.accountId) {
        const actor = { userId: confirmed.userId, accountId: confirmed.accountId };
        Object.assign(audit, { actor, targetId: confirmed.userId });
      }
      setFlash(res, ctx.urls.base, 'email_confirmed');
      return res.redirect(303, '/login');
    }
    await render(
      {
        lines: [
          'This confirmation link is unknown, expired or already used. Sign in to ask for a new one.',
        ],
        link: { href: '/login', label: 'Sign in' },
        error: true,
      },
      { status: 400 },
    );
  }),

  emailRequestPage({
    path: '/confirm',
    operationId: 'resendConfirmation',
    summary: 'Send a new confirmation link',
    description:
      'Mails a new confirmation link when the address has an unconfirmed account; the answer ' +
      'is the same in every case. Limited per client address and per e-mail address.',
    action: 'resend',
    what: 'a new confirmation link',
    deliver: resendConfirmation,
    back: { href: '/login', label: 'Sign in' },
  }),
];
