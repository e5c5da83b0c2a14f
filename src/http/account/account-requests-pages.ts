import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { LimitedAction } from '../../domain/accounts/account-rate-limits';
import type { AccountMailing } from '../../domain/accounts/registration';
import type { AppContext } from '../../runtime/app-context';
import { clientAddress } from '../kit/middleware/client-address';
import { definePage } from '../kit/routing/define-page';
import { sendGuestPage } from '../kit/chrome/guest-page';
import { htmlPage } from '../kit/routing/page-operations';

/*
 * What the signed-out account forms (sign-up, confirm, forgot, reset) share: fields, the
 * documented answers, the rate limits' page, and the two “mail me a link” forms. Every
 * answer about an address is the same whether or not it has an account.
 */

export const csrfField = z.string().describe('the hidden value of the form');
export const emailField = z.string().max(320);
const emailBody = z.object({ email: emailField, _csrf: csrfField }).meta({ id: 'EmailForm' });
export const tokenQuery = z.object({
  token: z.string().max(200).default('').describe('the token of the e-mailed link'),
});

export const FORM_EXPIRED = 'The form expired. Please try again.';
export const POST_ERRORS = ['payload_too_large', 'unsupported_media_type'] as const;
export const expiredAnswer = htmlPage('the form expired (no or a wrong `_csrf`): the form again');
export const limitedAnswer = {
  ...htmlPage('`rate_limited`: a page saying when to retry'),
  headers: { 'Retry-After': 'seconds to wait' },
};

export const CHECK_EMAIL = (what: string) => [
  `If the address can be used, a message with ${what} is on its way. It can take a minute; look in the spam folder too.`,
];

/**
 * Counts the request against the action's limits; when one is exceeded, answers the 429 page
 * (with `Retry-After`) and says so.
 */
export async function answeredTooMany(
  req: Request,
  res: Response,
  ctx: AppContext,
  action: LimitedAction,
  email?: string,
): Promise<boolean> {
  const seconds = await ctx.accounts.limits.consume(action, { address: clientAddress(req), email });
  if (seconds === 0) return false;
  const minutes = Math.ceil(seconds / 60);
  const lines = [
    `Too many requests. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  ];
  res.set('Retry-After', String(seconds));
  const page = { status: 429, template: 'message' as const, title: 'Too many requests' };
  await sendGuestPage(req, res, ctx.urls.base, page, { lines, error: true });
  return true;
}

/**
 * A “mail me a link” form's post (resend the confirmation, forgot password): the action's
 * limits, the domain call, and one answer for every address; an expired form links back to
 * where it came from.
 */
export function emailRequestPage<const P extends string>(spec: {
  path: P;
  operationId: string;
  summary: string;
  description: string;
  action: LimitedAction;
  what: string;
  deliver: (em: EntityManager, mailing: AccountMailing, email: string) => Promise<void>;
  back: { href: string; label: string };
}) {
  return definePage({
    method: 'post',
    path: spec.path,
    audit: { exempt: 'asks for a mail to an address; acts for nobody until its link is used' },
    access: 'guest',
    template: 'message',
    title: 'Check your e-mail',
    form: emailBody,
    refused: ({ render }) =>
      render(
        { lines: [FORM_EXPIRED], link: spec.back, error: true },
        { status: 403, title: 'Form expired' },
      ),
    document: {
      operationId: spec.operationId,
      summary: spec.summary,
      description: spec.description,
      responses: { 200: htmlPage('“check your e-mail”'), 403: expiredAnswer, 429: limitedAnswer },
      errors: [...POST_ERRORS],
    },
  }).handle(async ({ req, res, form, render }, ctx) => {
    if (await answeredTooMany(req, res, ctx, spec.action, form.email)) return;
    await spec.deliver(req.em, ctx.accounts.mailing, form.email);
    await render({ lines: CHECK_EMAIL(spec.what) });
  });
}
