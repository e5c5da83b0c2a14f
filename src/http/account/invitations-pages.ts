import type { Request, Response } from 'express';
import { z } from 'zod';
import {
  acceptInvitation,
  hasConfirmedUser,
  invitationState,
  signUpFromInvitation,
  type Acceptance,
} from '../../domain/accounts/invitations';
import { switchSessionAccount } from '../../domain/accounts/memberships';
import { MIN_PASSWORD_LENGTH, newPasswordProblem } from '../../domain/accounts/password-changes';
import type { AppContext } from '../../runtime/app-context';
import { setSessionCookie } from '../kit/session/cookies';
import { shownAccountName } from './shown-account-name';
import { definePage } from '../kit/routing/define-page';
import { setFlash } from '../kit/session/flash';
import { sendGuestPage } from '../kit/chrome/guest-page';
import { currentSession } from '../kit/session/session-guard';
import type { Templates } from '../kit/chrome/template-data';
import { csrfField, tokenQuery } from './account-requests-pages';

const acceptBody = z.object({ token: z.string().max(200), _csrf: csrfField });
const signUpBody = z.object({
  token: z.string().max(200),
  password: z.string().max(1024),
  name: z.string().max(200).optional(),
  _csrf: csrfField,
});

export const NOT_VALID: Record<Exclude<Acceptance['kind'], 'accepted'>, string> = {
  unknown: 'This invitation link is unknown. Check that you copied all of it.',
  used: 'This invitation was already accepted; it works once.',
  revoked: 'This invitation was revoked (or replaced by a newer one). Ask for a new one.',
  declined: 'This invitation was declined. Ask for a new one if that was a mistake.',
  expired: 'This invitation expired (links work for 7 days). Ask for a new one.',
  other_address: 'This invitation is for another e-mail address.',
};

/** A link that cannot be used (unknown, used, revoked, expired): 400 and why. */
function notValid(req: Request, res: Response, ctx: AppContext, kind: keyof typeof NOT_VALID) {
  const page = { status: 400, template: 'message' as const, title: 'Invitation not valid' };
  return sendGuestPage(req, res, ctx.urls.base, page, { lines: [NOT_VALID[kind]], error: true });
}

type InviteData = Templates['invite'];

/**
 * What the link's holder sees: accept (signed in with the invited address), sign out (signed
 * in as someone else), sign in (the address has a user) or sign up (it has none).
 */
async function showInvite(
  req: Request,
  res: Response,
  ctx: AppContext,
  token: string,
  extra: { status?: number; error?: string } = {},
) {
  const state = await invitationState(req.em, token);
  if (state.kind !== 'pending') return notValid(req, res, ctx, state.kind);
  const { invitation } = state;
  const session = await currentSession(req, ctx);
  const base = {
    token,
    accountName: shownAccountName(invitation.accountName),
    inviterEmail: invitation.inviterEmail,
    email: invitation.email,
    role: invitation.role,
    minPasswordLength: MIN_PASSWORD_LENGTH,
    error: extra.error,
  };
  let data: InviteData;
  if (session) {
    const mine = session.email.toLowerCase() === invitation.email;
    data = mine
      ? { ...base, mode: 'accept' }
      : { ...base, mode: 'other', signedInAs: session.email, sessionCsrf: session.csrfToken };
  } else {
    const known = await hasConfirmedUser(req.em, invitation.email);
    const next = `/invite?token=${encodeURIComponent(token)}`;
    data = known
      ? { ...base, mode: 'signin', loginHref: `/login?next=${encodeURIComponent(next)}` }
      : { ...base, mode: 'signup' };
  }
  const page = { status: extra.status, template: 'invite' as const, title: 'Invitation' };
  await sendGuestPage(req, res, ctx.urls.base, page, data);
}

/** `/invite?token=…`: an invitation's link (docs/teams.md). */
export const invitationPages = [
  definePage({
    method: 'get',
    path: '/invite',
    access: 'guest',
    query: tokenQuery,
  }).handle(({ req, res, query }, ctx) => showInvite(req, res, ctx, query.token)),

  definePage({
    method: 'post',
    path: '/invite/accept',
    access: 'guest',
    form: acceptBody,
    audit: { action: 'invitation.accepted', target: 'user' },
  }).handle(async ({ req, res, form, audit }, ctx) => {
    const session = await currentSession(req, ctx);
    const next = `/invite?token=${encodeURIComponent(form.token)}`;
    if (!session) return res.redirect(303, `/login?next=${encodeURIComponent(next)}`);
    const result = await acceptInvitation(req.em, form.token, {
      id: session.userId,
      email: session.email,
    });
    if (result.kind !== 'accepted') return notValid(req, res, ctx, result.kind);
    await switchSessionAccount(req.em, session, result.accountId);
    const { userId } = session;
    Object.assign(audit, { actor: { accountId: result.accountId, userId }, targetId: userId });
    audit.summary = `${session.email} joined`;
    setFlash(res, ctx.urls.base, 'invitation_accepted');
    res.redirect(303, '/app');
  }),

  definePage({
    method: 'post',
    path: '/invite/signup',
    access: 'guest',
    form: signUpBody,
    audit: { action: 'invitation.accepted', target: 'user' },
  }).handle(async ({ req, res, form, audit }, ctx) => {
    const problem = newPasswordProblem(form.password);
    if (problem) return showInvite(req, res, ctx, form.token, { status: 422, error: problem });
    const name = form.name?.trim() || undefined;
    const result = await signUpFromInvitation(req.em, form.token, {
      password: form.password,
      name,
    });
    if (result.kind === 'taken') return showInvite(req, res, ctx, form.token);
    if (result.kind !== 'signed_up') return notValid(req, res, ctx, result.kind);
    const { userId, accountId } = result.session;
    Object.assign(audit, { actor: { accountId, userId }, targetId: userId });
    audit.summary = 'signed up from the invitation and joined';
    setSessionCookie(res, ctx.urls.base, result.token);
    setFlash(res, ctx.urls.base, 'invitation_accepted');
    res.redirect(303, '/app');
  }),
];
