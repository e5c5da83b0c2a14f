import type { Request, Response } from 'express';
import { confirmRecipient, pendingConfirmation } from '../../domain/recipients/confirmations';
import { unsubscribeRecipient, unsubscribeTarget } from '../../domain/recipients/unsubscribe';
import type { AppContext } from '../../runtime/app-context';
import { definePage } from '../kit/routing/define-page';
import { sendGuestPage } from '../kit/chrome/guest-page';
import {
  emailedLinkPage,
  emailedLinkQuery,
  oneClickUnsubscribeBody,
} from '../account/emailed-links-pages';

const oneClickBody = oneClickUnsubscribeBody('OneClickUnsubscribe');

const LINK_NOT_VALID = [
  'This link is unknown, expired or already used. If you still want these e-mails, ask the form’s owner to add your address again.',
];

/** The page for a link that is not (or no longer) valid. */
function linkNotValid(req: Request, res: Response, ctx: AppContext): Promise<void> {
  const answer = { status: 400, template: 'message' as const, title: 'Link not valid' };
  return sendGuestPage(req, res, ctx.urls.base, answer, { lines: LINK_NOT_VALID, error: true });
}

/**
 * The links in recipient mail (docs/security.md, "Recipients and mail"). Confirming takes a POST (the
 * button of the GET page), since mail scanners fetch every link of a message; unsubscribing
 * is RFC 8058 one-click: a POST to the `List-Unsubscribe` URL, with no cookie and no CSRF
 * token (mail providers send it cross-site), and a GET page with a button for people. The
 * posts carry no signed-out CSRF token: the link's token is what they prove.
 */
export const recipientPages = [
  definePage({
    method: 'get',
    path: '/recipients/confirm',
    access: 'guest',
    template: 'recipient-action',
    title: 'Confirm submission e-mails',
    query: emailedLinkQuery,
    document: {
      operationId: 'recipientConfirmPage',
      summary: 'Confirm receiving submission e-mails: the page',
      description:
        'The link of a recipient confirmation request. It shows a “Confirm” button and changes ' +
        'nothing itself, so a mail scanner fetching the link confirms nothing.',
      responses: {
        200: emailedLinkPage('the confirm button'),
        400: emailedLinkPage('an unknown, used or expired link'),
      },
      errors: [],
    },
  }).handle(async ({ req, res, query, render }, ctx) => {
    const pending = await pendingConfirmation(req.em, query.token);
    if (!pending) return linkNotValid(req, res, ctx);
    await render({
      lines: [
        `Formward account no. ${pending.accountId} asks to e-mail ${pending.address} the submissions of its forms.`,
        'Confirm to receive them. Every message has a one-click unsubscribe link.',
      ],
      action: `/recipients/confirm?token=${encodeURIComponent(query.token)}`,
      button: 'Confirm',
      error: false,
    });
  }),

  definePage({
    method: 'post',
    path: '/recipients/confirm',
    audit: { exempt: 'a recipient confirms their address by its link; acts for no member' },
    access: 'guest',
    guestCsrf: false,
    template: 'message',
    title: 'Confirmed',
    query: emailedLinkQuery,
    document: {
      operationId: 'confirmRecipient',
      summary: 'Confirm receiving submission e-mails',
      description:
        'The button of the confirm page: from now on the address receives the submissions the ' +
        'account sends it (the link works once).',
      responses: {
        200: emailedLinkPage('confirmed'),
        400: emailedLinkPage('an unknown, used or expired link'),
      },
      errors: [],
    },
  }).handle(async ({ req, res, query, render }, ctx) => {
    const confirmed = await confirmRecipient(req.em, query.token);
    if (!confirmed) return linkNotValid(req, res, ctx);
    await render({
      lines: [
        `${confirmed.address} now receives the submissions Formward account no. ${confirmed.accountId} sends it. Each message has a one-click unsubscribe link.`,
      ],
      error: false,
    });
  }),

  definePage({
    method: 'get',
    path: '/recipients/unsubscribe',
    access: 'guest',
    template: 'recipient-action',
    title: 'Unsubscribe',
    query: emailedLinkQuery,
    document: {
      operationId: 'recipientUnsubscribePage',
      summary: 'Unsubscribe from submission e-mails: the page',
      description: 'The `List-Unsubscribe` link opened in a browser: a page with a button.',
      responses: {
        200: emailedLinkPage('the unsubscribe button'),
        400: emailedLinkPage('a link not made here'),
      },
      errors: [],
    },
  }).handle(async ({ req, res, query, render }, ctx) => {
    const target = unsubscribeTarget(ctx.unsubscribeTokens, query.token);
    if (!target) return linkNotValid(req, res, ctx);
    await render({
      lines: [`Stop all e-mail of Formward account no. ${target.accountId} to ${target.address}?`],
      action: `/recipients/unsubscribe?token=${encodeURIComponent(query.token)}`,
      button: 'Unsubscribe',
      oneClick: true,
      error: false,
    });
  }),

  definePage({
    method: 'post',
    path: '/recipients/unsubscribe',
    audit: { exempt: 'a recipient unsubscribes by its link; acts for no member' },
    access: 'guest',
    // Mail providers post it cross-site, with no cookie and no token but the link's.
    guestCsrf: false,
    template: 'message',
    title: 'Unsubscribed',
    query: emailedLinkQuery,
    document: {
      operationId: 'unsubscribeRecipient',
      summary: 'Unsubscribe from submission e-mails (RFC 8058 one-click)',
      description:
        'The `List-Unsubscribe` URL as mail providers POST it (`List-Unsubscribe=One-Click`), ' +
        'with no cookie or CSRF token. The address receives nothing more from the account until ' +
        'it confirms again through a new request. Idempotent.',
      body: { schema: oneClickBody, required: false },
      responses: {
        200: emailedLinkPage('unsubscribed'),
        400: emailedLinkPage('a link not made here'),
      },
      errors: [],
    },
  }).handle(async ({ req, res, query, render }, ctx) => {
    const target = unsubscribeTarget(ctx.unsubscribeTokens, query.token);
    if (!target) return linkNotValid(req, res, ctx);
    await unsubscribeRecipient(req.em, target);
    await render({
      lines: [
        `${target.address} receives no more e-mail from Formward account no. ${target.accountId}.`,
      ],
      error: false,
    });
  }),
];
