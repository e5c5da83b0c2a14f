import type { Request, Response } from 'express';
import {
  invitationUnsubscribeTarget,
  refuseInvitations,
} from '../../domain/accounts/invitation-opt-outs';
import type { AppContext } from '../../runtime/app-context';
import { definePage } from '../kit/routing/define-page';
import { sendGuestPage } from '../kit/chrome/guest-page';
import { emailedLinkPage, emailedLinkQuery, oneClickUnsubscribeBody } from './emailed-links-pages';

const oneClickBody = oneClickUnsubscribeBody('OneClickInvitationUnsubscribe');

function linkNotValid(req: Request, res: Response, ctx: AppContext): Promise<void> {
  const answer = { status: 400, template: 'message' as const, title: 'Link not valid' };
  const lines = ['This link was not made by this Formward, or it was changed on the way.'];
  return sendGuestPage(req, res, ctx.urls.base, answer, { lines, error: true });
}

/**
 * The one-click unsubscribe of invitation mail (docs/teams.md, "Invitations"): RFC 8058, a
 * POST to the `List-Unsubscribe` URL with no cookie and no CSRF token (mail providers send it
 * cross-site; the link's token is the proof), and a GET page with a button for people. The
 * address then takes no invitation from any account of this Formward.
 */
export const invitationUnsubscribePages = [
  definePage({
    method: 'get',
    path: '/invitations/unsubscribe',
    access: 'guest',
    template: 'recipient-action',
    title: 'Unsubscribe from invitations',
    query: emailedLinkQuery,
    document: {
      operationId: 'invitationUnsubscribePage',
      summary: 'Unsubscribe from invitations: the page',
      description:
        'The `List-Unsubscribe` link of an invitation opened in a browser: a page with a button.',
      responses: {
        200: emailedLinkPage('the unsubscribe button'),
        400: emailedLinkPage('a link not made here'),
      },
      errors: [],
    },
  }).handle(async ({ req, res, query, render }, ctx) => {
    const target = invitationUnsubscribeTarget(ctx.accounts.invitationUnsubscribes, query.token);
    if (!target) return linkNotValid(req, res, ctx);
    await render({
      lines: [`Stop all invitations to ${target.address}, from every account of this Formward?`],
      action: `/invitations/unsubscribe?token=${encodeURIComponent(query.token)}`,
      button: 'Unsubscribe',
      oneClick: true,
      error: false,
    });
  }),

  definePage({
    method: 'post',
    path: '/invitations/unsubscribe',
    audit: { exempt: 'an invited address refuses invitations by its link; acts for no member' },
    access: 'guest',
    // Mail providers post it cross-site, with no cookie and no token but the link's.
    guestCsrf: false,
    template: 'message',
    title: 'Unsubscribed',
    query: emailedLinkQuery,
    document: {
      operationId: 'unsubscribeInvitations',
      summary: 'Unsubscribe from invitations (RFC 8058 one-click)',
      description:
        'The `List-Unsubscribe` URL of an invitation as mail providers POST it ' +
        '(`List-Unsubscribe=One-Click`), with no cookie or CSRF token. The address receives no ' +
        'invitation again from any account. Idempotent.',
      body: { schema: oneClickBody, required: false },
      responses: {
        200: emailedLinkPage('unsubscribed'),
        400: emailedLinkPage('a link not made here'),
      },
      errors: [],
    },
  }).handle(async ({ req, res, query, render }, ctx) => {
    const target = invitationUnsubscribeTarget(ctx.accounts.invitationUnsubscribes, query.token);
    if (!target) return linkNotValid(req, res, ctx);
    await refuseInvitations(req.em, ctx.addressKeys, target.address);
    await render({
      lines: [`${target.address} receives no more invitations from this Formward.`],
      error: false,
    });
  }),
];
