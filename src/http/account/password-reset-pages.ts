import { z } from 'zod';
import {
  MIN_PASSWORD_LENGTH,
  newPasswordProblem,
  requestPasswordReset,
  resetPassword,
} from '../../domain/accounts/password-changes';
import { roleAllows } from '../../domain/accounts/member-roles';
import { setSessionCookie } from '../kit/session/cookies';
import { KEYS_NEED } from './api-keys-pages';
import { definePage } from '../kit/routing/define-page';
import { setFlash } from '../kit/session/flash';
import { sendGuestPage } from '../kit/chrome/guest-page';
import { htmlPage } from '../kit/routing/page-operations';
import {
  answeredTooMany,
  csrfField,
  emailRequestPage,
  expiredAnswer,
  FORM_EXPIRED,
  limitedAnswer,
  POST_ERRORS,
  tokenQuery,
} from './account-requests-pages';

const resetBody = z
  .object({ password: z.string().max(1024), _csrf: csrfField })
  .meta({ id: 'ResetForm' });

/** Forgot password (a link by e-mail, the same answer for every address) and reset. */
export const passwordResetPages = [
  definePage({
    method: 'get',
    path: '/forgot',
    access: 'guest',
    template: 'forgot',
    title: 'Forgot password',
    document: {
      operationId: 'forgotPage',
      summary: 'Forgot-password form',
      responses: { 200: htmlPage('the form') },
      errors: [],
    },
  }).handle(({ render }) => render({})),

  emailRequestPage({
    path: '/forgot',
    operationId: 'requestPasswordReset',
    summary: 'Ask for a password reset link',
    description:
      'Mails a reset link (valid one hour, once) when the address has an account; the answer ' +
      'is the same in every case. Limited per client address and per e-mail address.',
    action: 'forgot',
    what: 'a password reset link',
    deliver: requestPasswordReset,
    back: { href: '/forgot', label: 'Forgot password' },
  }),

  definePage({
    method: 'get',
    path: '/reset',
    access: 'guest',
    template: 'reset',
    title: 'Choose a new password',
    query: tokenQuery,
    document: {
      operationId: 'resetPage',
      summary: 'New-password form',
      description: 'The link of the reset e-mail.',
      responses: { 200: htmlPage('the form') },
      errors: [],
    },
  }).handle(({ query, render }) =>
    render({ minPasswordLength: MIN_PASSWORD_LENGTH, token: query.token }),
  ),

  definePage({
    method: 'post',
    path: '/reset',
    audit: { action: 'user.password_reset', target: 'user' },
    access: 'guest',
    template: 'reset',
    title: 'Choose a new password',
    query: tokenQuery,
    form: resetBody,
    refused: ({ query, render }) =>
      render(
        { minPasswordLength: MIN_PASSWORD_LENGTH, error: FORM_EXPIRED, token: query.token },
        { status: 403 },
      ),
    document: {
      operationId: 'resetPassword',
      summary: 'Set a new password',
      description:
        'Sets the password through the e-mailed token (once), signs out every session of the ' +
        'account’s user and signs in a new one, which goes to the account’s API keys (with who ' +
        'created each and when it was last used) to revoke any not recognised. Limited per ' +
        'client address.',
      responses: {
        303: {
          description: 'changed and signed in',
          redirect: true,
          headers: { Location: '/app/keys (a viewer: /app)', 'Set-Cookie': 'the session cookie' },
        },
        400: htmlPage('an unknown, used or expired link; or a short password: the form again'),
        403: expiredAnswer,
        429: limitedAnswer,
      },
      errors: [...POST_ERRORS],
    },
  }).handle(async ({ req, res, query, form, render, audit }, ctx) => {
    if (await answeredTooMany(req, res, ctx, 'reset')) return;
    const problem = newPasswordProblem(form.password);
    if (problem) {
      return render(
        { minPasswordLength: MIN_PASSWORD_LENGTH, error: problem, token: query.token },
        { status: 400 },
      );
    }
    const opened = await resetPassword(req.em, query.token, form.password);
    if (!opened) {
      const page = { status: 400, template: 'message' as const, title: 'Link not valid' };
      return sendGuestPage(req, res, ctx.urls.base, page, {
        lines: ['This reset link is unknown, expired or already used. Ask for a new one.'],
        link: { href: '/forgot', label: 'Forgot password' },
        error: true,
      });
    }
    // Signed in, straight to the account's API keys: keys outlive a password, so whoever
    // reset it because someone else had it sees what that person may have left behind. A
    // viewer, who cannot manage keys, goes to the overview.
    const { userId, accountId } = opened.session;
    Object.assign(audit, { actor: { userId, accountId }, targetId: userId });
    setSessionCookie(res, ctx.urls.base, opened.token);
    setFlash(res, ctx.urls.base, 'password_reset');
    res.redirect(303, roleAllows(opened.role, KEYS_NEED) ? '/app/keys' : '/app');
  }),
];
