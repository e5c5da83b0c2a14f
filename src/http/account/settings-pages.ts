import { z } from 'zod';
import {
  changePassword,
  MIN_PASSWORD_LENGTH,
  newPasswordProblem,
} from '../../domain/accounts/password-changes';
import { definePage } from '../kit/routing/define-page';
import { setFlash } from '../kit/session/flash';
import { clientAddress } from '../kit/middleware/client-address';

const SETTINGS = { access: 'session', template: 'settings', title: 'Settings' } as const;
const passwordForm = z.object({ current: z.string().max(1024), password: z.string().max(1024) });

/** `/app/settings`: change the password (the other sessions of the user end). */
export const settingsPages = [
  definePage({ need: 'member', ...SETTINGS, method: 'get', path: '/app/settings' }).handle(
    ({ render }) => render({ minPasswordLength: MIN_PASSWORD_LENGTH }),
  ),

  definePage({
    need: 'member',
    ...SETTINGS,
    method: 'post',
    path: '/app/settings/password',
    audit: { action: 'user.password_changed', target: 'user' },
  }).handle(async ({ req, res, session, render, audit }, ctx) => {
    audit.targetId = session.userId;
    const again = (error: string, status = 422) =>
      render({ error, minPasswordLength: MIN_PASSWORD_LENGTH }, { status });
    const form = passwordForm.safeParse(req.body ?? {});
    if (!form.success) return again('Please fill in both passwords.');
    const problem = newPasswordProblem(form.data.password);
    if (problem) return again(problem);
    const result = await changePassword(req.em, {
      userId: session.userId,
      sessionId: session.sessionId,
      current: form.data.current,
      next: form.data.password,
      clientAddress: clientAddress(req),
    });
    if (result.kind === 'throttled') {
      const minutes = Math.ceil(result.retryAfterSeconds / 60);
      res.set('Retry-After', String(result.retryAfterSeconds));
      return again(
        `Too many wrong passwords. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        429,
      );
    }
    if (result.kind === 'wrong_password') return again('The current password is wrong.');
    setFlash(res, ctx.urls.base, 'password_changed');
    res.redirect(303, '/app/settings');
  }),
];
