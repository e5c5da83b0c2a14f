import {
  acceptOfferedInvitation,
  declineOfferedInvitation,
} from '../../domain/accounts/invitation-offers';
import { switchSessionAccount } from '../../domain/accounts/memberships';
import { definePage, type Render } from '../kit/routing/define-page';
import { setFlash } from '../kit/session/flash';
import { formatTime } from '../kit/chrome/format-time';
import { offerViews } from './invitation-offer-views';
import type { DashboardSession } from '../kit/session/session-guard';
import { NOT_VALID } from './invitations-pages';
import type { Request } from 'express';

const OFFERS = { need: 'member', access: 'session', template: 'invitations' } as const;

type OffersPage = { req: Request; session: DashboardSession; render: Render<'invitations'> };

/** The offers again, with why one could not be accepted or declined. */
async function showOffers({ req, session, render }: OffersPage, error?: string) {
  const offers = await offerViews(req.em, session);
  await render({ offers, formatTime, error }, { status: error ? 409 : 200 });
}

/**
 * `/app/invitations` (docs/teams.md): the invitations to the signed-in user's address, from
 * any account, each accepted or declined with a click; no sign-in accepts one by itself.
 */
export const invitationOfferPages = [
  definePage({ ...OFFERS, method: 'get', path: '/app/invitations', title: 'Invitations' }).handle(
    (page) => showOffers(page),
  ),

  definePage({
    ...OFFERS,
    method: 'post',
    path: '/app/invitations/:id/accept',
    title: 'Invitations',
    // Recorded in the account joined, as accepting by the link is.
    audit: { action: 'invitation.accepted', target: 'invitation' },
  }).handle(async (page, ctx) => {
    const { req, res, params, session, audit } = page;
    const result = await acceptOfferedInvitation(req.em, params.id, {
      id: session.userId,
      email: session.email,
    });
    if (result.kind !== 'accepted') return showOffers(page, NOT_VALID[result.kind]);
    await switchSessionAccount(req.em, session, result.accountId);
    audit.actor = { accountId: result.accountId, userId: session.userId };
    audit.summary = `${session.email} joined`;
    setFlash(res, ctx.urls.base, 'invitation_accepted');
    res.redirect(303, '/app');
  }),

  definePage({
    ...OFFERS,
    method: 'post',
    path: '/app/invitations/:id/decline',
    title: 'Invitations',
    // Recorded in the inviting account: its owner sees who declined.
    audit: { action: 'invitation.declined', target: 'invitation' },
  }).handle(async (page, ctx) => {
    const { req, res, params, session, audit } = page;
    const result = await declineOfferedInvitation(req.em, params.id, session);
    if (result.kind !== 'marked_declined') return showOffers(page, NOT_VALID[result.kind]);
    audit.actor = { accountId: result.accountId, userId: session.userId };
    audit.summary = `${session.email} declined`;
    setFlash(res, ctx.urls.base, 'invitation_declined');
    res.redirect(303, '/app/invitations');
  }),
];
