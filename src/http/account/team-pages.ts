import { z } from 'zod';
import {
  InvitationRefused,
  inviteMember,
  listPendingInvitations,
  revokeInvitation,
} from '../../domain/accounts/invitations';
import { MEMBER_ROLE_LABELS } from '../../domain/accounts/member-roles';
import {
  changeMemberRole,
  findMemberEmail,
  listMembers,
  MemberChangeRefused,
  removeMember,
  transferOwnership,
} from '../../domain/accounts/memberships';
import type { KeyRevocationAuthor } from '../../domain/accounts/member-keys';
import { openSession } from '../../domain/accounts/sessions';
import { setSessionCookie } from '../kit/session/cookies';
import { clientAddress } from '../kit/middleware/client-address';
import { definePage, type Render } from '../kit/routing/define-page';
import { setFlash, type FlashCode } from '../kit/session/flash';
import { formatTime } from '../kit/chrome/format-time';
import { revealOnce } from '../kit/session/reveal-once';
import type { Request, Response } from 'express';
import type { AppContext } from '../../runtime/app-context';
import type { DashboardSession } from '../kit/session/session-guard';
import type { Templates } from '../kit/chrome/template-data';

const TEAM = { access: 'session', template: 'team', title: 'Team' } as const;

const inviteForm = z.object({
  email: z.email('Enter a valid e-mail address.').max(320),
  role: z.enum(['admin', 'viewer'], { error: 'Choose a role.' }),
});
const roleForm = z.object({ role: z.enum(['admin', 'viewer']) });

export type TeamPage = { req: Request; session: DashboardSession; render: Render<'team'> };

/** The members and pending invitations, with a refusal or the invite form as typed. */
export async function showTeam(
  { req, session, render }: TeamPage,
  extra: { status?: number; data?: Partial<Templates['team']> } = {},
) {
  const [members, invitations] = await Promise.all([
    listMembers(req.em, session.accountId),
    listPendingInvitations(req.em, session.accountId),
  ]);
  await render(
    {
      members,
      invitations,
      isOwner: session.role === 'owner',
      selfId: session.userId,
      roleLabels: MEMBER_ROLE_LABELS,
      formatTime,
      form: {},
      ...extra.data,
    },
    { status: extra.status },
  );
}

export const body = (req: Request) => (req.body ?? {}) as Record<string, unknown>;

export function done(res: Response, ctx: AppContext, code: FlashCode, to = '/app/team') {
  setFlash(res, ctx.urls.base, code);
  res.redirect(303, to);
}

/** The address of the member the path names, for the audit entry's summary. */
export async function memberEmail({
  req,
  params,
  session,
}: TeamPage & { params: { userId: string } }) {
  return (await findMemberEmail(req.em, session.accountId, params.userId)) ?? 'a former member';
}

/**
 * Runs a change to the members: its result, or null after a refusal, which shows the team
 * page with its reason (409).
 */
export async function change<T>(page: TeamPage, work: () => Promise<T>): Promise<T | null> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof MemberChangeRefused)) throw error;
    await showTeam(page, { status: 409, data: { error: error.message } });
    return null;
  }
}

/** Who changes the members, for the audit entries of the keys a change revokes. */
export const changedBy = ({ req, session }: TeamPage): KeyRevocationAuthor => ({
  userId: session.userId,
  email: session.email,
  clientAddress: clientAddress(req),
});

/**
 * Tells the team page, once, what became of the keys a member created: revoked by a removal
 * or a lower role, or kept at the owner's choice.
 */
export function tellKeyChange(
  res: Response,
  ctx: AppContext,
  keyChange: NonNullable<Templates['team']['keyChange']>,
): void {
  if (keyChange.revoked + keyChange.kept > 0) revealOnce(res, ctx, '/app/team', { keyChange });
}

/**
 * `/app/team` (docs/teams.md): every member sees who is in the account; the owner invites,
 * revokes invitations, changes roles, removes members and transfers ownership; anyone but
 * the owner may leave.
 */
export const teamPages = [
  definePage({ need: 'member', ...TEAM, method: 'get', path: '/app/team' }).handle((page) =>
    showTeam(page),
  ),

  definePage({
    need: 'owner',
    ...TEAM,
    method: 'post',
    path: '/app/team/invite',
    audit: { action: 'invitation.sent', target: 'invitation' },
  }).handle(async (page, ctx) => {
    const { req, res, session, audit } = page;
    const fields = { email: body(req).email, role: body(req).role };
    const parsed = inviteForm.safeParse({
      ...fields,
      email: typeof fields.email === 'string' ? fields.email.trim() : fields.email,
    });
    const again = (error: string, status: number) =>
      showTeam(page, {
        status,
        data: { error, form: { email: String(fields.email ?? ''), role: String(fields.role) } },
      });
    if (!parsed.success) return again(parsed.error.issues[0]!.message, 422);
    let invitationId: string;
    try {
      invitationId = await inviteMember(
        req.em,
        {
          mailing: ctx.accounts.mailing,
          invitationsPerHour: ctx.config.invitationsPerHour,
          invitationsPerAddressPerDay: ctx.config.invitationsPerAddressPerDay,
          mailPerHour: ctx.config.accountMailPerHour,
          addressKeys: ctx.addressKeys,
          unsubscribes: ctx.accounts.invitationUnsubscribes,
        },
        { accountId: session.accountId, invitedByUserId: session.userId, ...parsed.data },
      );
    } catch (error) {
      if (error instanceof InvitationRefused) return again(error.message, 409);
      throw error;
    }
    audit.targetId = invitationId;
    audit.summary = `${parsed.data.email.toLowerCase()} as ${parsed.data.role}`;
    done(res, ctx, 'invitation_sent');
  }),

  definePage({
    need: 'owner',
    ...TEAM,
    method: 'post',
    path: '/app/team/invitations/:id/revoke',
    audit: { action: 'invitation.revoked', target: 'invitation' },
  }).handle(async (page, ctx) => {
    const { req, res, params, session } = page;
    if (
      !/^\d{1,18}$/.test(params.id) ||
      !(await revokeInvitation(req.em, session.accountId, params.id))
    )
      return showTeam(page, { status: 404, data: { error: 'No such pending invitation.' } });
    done(res, ctx, 'invitation_revoked');
  }),

  definePage({
    need: 'owner',
    ...TEAM,
    method: 'post',
    path: '/app/team/members/:userId/role',
    audit: { action: 'member.role_changed', target: 'user' },
  }).handle(async (page, ctx) => {
    const { req, res, params, session } = page;
    const parsed = roleForm.safeParse(body(req));
    if (!parsed.success || !/^\d{1,18}$/.test(params.userId))
      return showTeam(page, { status: 422, data: { error: 'Choose admin or viewer.' } });
    const role = parsed.data.role;
    const email = await memberEmail(page);
    page.audit.summary = `${email} is now ${role}`;
    const outcome = await change(page, () =>
      changeMemberRole(req.em, {
        accountId: session.accountId,
        userId: params.userId,
        role,
        by: changedBy(page),
      }),
    );
    if (!outcome) return;
    page.audit.skip = !outcome.changed;
    tellKeyChange(res, ctx, { member: email, revoked: outcome.revoked.length, kept: 0 });
    done(res, ctx, 'role_changed');
  }),

  definePage({
    need: 'owner',
    ...TEAM,
    method: 'post',
    path: '/app/team/members/:userId/transfer',
    audit: { action: 'account.ownership_transferred', target: 'user' },
  }).handle(async (page, ctx) => {
    const { req, res, params, session } = page;
    if (!/^\d{1,18}$/.test(params.userId))
      return showTeam(page, { status: 404, data: { error: 'No such member.' } });
    page.audit.summary = `${await memberEmail(page)} is the owner now`;
    const transfer = async () => {
      await transferOwnership(
        req.em,
        session.accountId,
        session.userId,
        params.userId,
        ctx.config.budgets.accountsPerUser,
      );
      return true;
    };
    if (await change(page, transfer)) done(res, ctx, 'ownership_transferred');
  }),

  definePage({
    need: 'member',
    ...TEAM,
    method: 'post',
    path: '/app/team/leave',
    audit: { action: 'member.left', target: 'user' },
  }).handle(async (page, ctx) => {
    const { req, res, session, audit } = page;
    audit.targetId = session.userId;
    audit.summary = `${session.email} left`;
    if (session.role === 'owner')
      return showTeam(page, {
        status: 409,
        data: { error: 'The owner cannot leave; transfer ownership first.' },
      });
    // The session acting here ends with the membership; a new one opens in the user's
    // last used other account (every user has one of their own).
    // The keys they created go with them: nobody keeps access through a key after leaving.
    const leave = () =>
      removeMember(req.em, {
        accountId: session.accountId,
        userId: session.userId,
        by: changedBy(page),
      });
    if (!(await change(page, leave))) return;
    const opened = await openSession(req.em, { id: session.userId });
    if (!opened) return res.redirect(303, '/login');
    setSessionCookie(res, ctx.urls.base, opened.token);
    done(res, ctx, 'account_left', '/app');
  }),
];
