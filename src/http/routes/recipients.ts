import type { Request, Response } from 'express';
import { z } from 'zod';
import { confirmRecipient, pendingConfirmation } from '../../domain/recipients/confirmations';
import { unsubscribeRecipient, unsubscribeTarget } from '../../domain/recipients/unsubscribe';
import { guestPage } from '../dashboard/guest-page';
import { defineRoute, type RouteContext } from '../routing/define-route';
import { FORM_BODY, htmlPage } from './sessions';

const tokenQuery = z.object({
  token: z.string().max(2000).default('').describe('the token of the e-mailed link'),
});
const oneClickBody = z
  .object({ 'List-Unsubscribe': z.literal('One-Click').optional() })
  .meta({ id: 'OneClickUnsubscribe' });

// The pages carry the link's token: never kept by a cache (every Dashboard-tagged route is
// answered no-store, register-routes.ts).
const page = (description: string) => ({
  ...htmlPage(description),
  headers: { 'Cache-Control': '`no-store`' },
});

/** A signed-out page about a recipient link: lines, and a button when there is something to do. */
async function recipientPage<S extends number>(
  req: Request,
  res: Response,
  ctx: RouteContext,
  status: S,
  title: string,
  lines: string[],
  form?: { action: string; button: string; oneClick?: boolean },
) {
  return guestPage(
    req,
    res,
    ctx.urls.base,
    { status, template: form ? 'recipient-action' : 'message', title },
    { lines, ...form, error: status >= 400 },
  );
}

const LINK_NOT_VALID = [
  'This link is unknown, expired or already used. If you still want these e-mails, ask the form’s owner to add your address again.',
];

/**
 * The links in recipient mail (README, "Recipients and mail"). Confirming takes a POST (the
 * button of the GET page), since mail scanners fetch every link of a message; unsubscribing
 * is RFC 8058 one-click: a POST to the `List-Unsubscribe` URL, with no cookie and no CSRF
 * token (mail providers send it cross-site), and a GET page with a button for people.
 */
export const recipientRoutes = [
  defineRoute({
    method: 'get',
    path: '/recipients/confirm',
    operationId: 'recipientConfirmPage',
    tag: 'Dashboard',
    summary: 'Confirm receiving submission e-mails: the page',
    description:
      'The link of a recipient confirmation request. It shows a “Confirm” button and changes ' +
      'nothing itself, so a mail scanner fetching the link confirms nothing.',
    access: 'public',
    query: tokenQuery,
    responses: {
      200: page('the confirm button'),
      400: page('an unknown, used or expired link'),
    },
    errors: [],
  }).handle(async ({ req, res, query }, ctx) => {
    const pending = await pendingConfirmation(req.em, query.token);
    if (!pending) return recipientPage(req, res, ctx, 400, 'Link not valid', LINK_NOT_VALID);
    return recipientPage(
      req,
      res,
      ctx,
      200,
      'Confirm submission e-mails',
      [
        `Formward account no. ${pending.accountId} asks to e-mail ${pending.address} the submissions of its forms.`,
        'Confirm to receive them. Every message has a one-click unsubscribe link.',
      ],
      {
        action: `/recipients/confirm?token=${encodeURIComponent(query.token)}`,
        button: 'Confirm',
      },
    );
  }),
  defineRoute({
    method: 'post',
    path: '/recipients/confirm',
    operationId: 'confirmRecipient',
    tag: 'Dashboard',
    summary: 'Confirm receiving submission e-mails',
    description:
      'The button of the confirm page: from now on the address receives the submissions the ' +
      'account sends it (the link works once).',
    access: 'public',
    query: tokenQuery,
    responses: {
      200: page('confirmed'),
      400: page('an unknown, used or expired link'),
    },
    errors: [],
  }).handle(async ({ req, res, query }, ctx) => {
    const confirmed = await confirmRecipient(req.em, query.token);
    if (!confirmed) return recipientPage(req, res, ctx, 400, 'Link not valid', LINK_NOT_VALID);
    return recipientPage(req, res, ctx, 200, 'Confirmed', [
      `${confirmed.address} now receives the submissions Formward account no. ${confirmed.accountId} sends it. Each message has a one-click unsubscribe link.`,
    ]);
  }),
  defineRoute({
    method: 'get',
    path: '/recipients/unsubscribe',
    operationId: 'recipientUnsubscribePage',
    tag: 'Dashboard',
    summary: 'Unsubscribe from submission e-mails: the page',
    description: 'The `List-Unsubscribe` link opened in a browser: a page with a button.',
    access: 'public',
    query: tokenQuery,
    responses: { 200: page('the unsubscribe button'), 400: page('a link not made here') },
    errors: [],
  }).handle(async ({ req, res, query }, ctx) => {
    const target = unsubscribeTarget(ctx.unsubscribeTokens, query.token);
    if (!target) return recipientPage(req, res, ctx, 400, 'Link not valid', LINK_NOT_VALID);
    return recipientPage(
      req,
      res,
      ctx,
      200,
      'Unsubscribe',
      [`Stop all e-mail of Formward account no. ${target.accountId} to ${target.address}?`],
      {
        action: `/recipients/unsubscribe?token=${encodeURIComponent(query.token)}`,
        button: 'Unsubscribe',
        oneClick: true,
      },
    );
  }),
  defineRoute({
    method: 'post',
    path: '/recipients/unsubscribe',
    operationId: 'unsubscribeRecipient',
    tag: 'Dashboard',
    summary: 'Unsubscribe from submission e-mails (RFC 8058 one-click)',
    description:
      'The `List-Unsubscribe` URL as mail providers POST it (`List-Unsubscribe=One-Click`), ' +
      'with no cookie or CSRF token. The address receives nothing more from the account until ' +
      'it confirms again through a new request. Idempotent.',
    access: 'public',
    query: tokenQuery,
    body: { schema: oneClickBody, mediaTypes: FORM_BODY, required: false, readByHandler: true },
    responses: { 200: page('unsubscribed'), 400: page('a link not made here') },
    errors: [],
  }).handle(async ({ req, res, query }, ctx) => {
    const target = unsubscribeTarget(ctx.unsubscribeTokens, query.token);
    if (!target) return recipientPage(req, res, ctx, 400, 'Link not valid', LINK_NOT_VALID);
    await unsubscribeRecipient(req.em, target);
    return recipientPage(req, res, ctx, 200, 'Unsubscribed', [
      `${target.address} receives no more e-mail from Formward account no. ${target.accountId}.`,
    ]);
  }),
];
