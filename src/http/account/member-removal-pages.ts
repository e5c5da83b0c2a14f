import { keyCreators } from '../../domain/accounts/api-keys';
import { listMemberKeys } from '../../domain/accounts/member-keys';
import { findMember, removeMember } from '../../domain/accounts/memberships';
import { definePage } from '../kit/routing/define-page';
import { formatTime } from '../kit/chrome/format-time';
import { keyRow } from './api-keys-pages';
import { body, change, changedBy, done, memberEmail, showTeam, tellKeyChange } from './team-pages';

const MEMBER_PATH = /^\d{1,18}$/;

/**
 * Removing a member (docs/teams.md): the owner first sees the API keys that member created
 * and still work (name, prefix, scopes, last use), which go with them unless the owner keeps
 * them; then the removal, which ends their sessions and revokes those keys at once.
 */
export const memberRemovalPages = [
  definePage({
    need: 'owner',
    access: 'session',
    template: 'member-remove',
    title: (data) => `Remove ${data.member.email}`,
    method: 'get',
    path: '/app/team/members/:userId/remove',
  }).handle(async (page) => {
    const { req, params, session, render } = page;
    const member = MEMBER_PATH.test(params.userId)
      ? await findMember(req.em, session.accountId, params.userId)
      : null;
    if (!member || member.role === 'owner') return page.next();
    const keys = await listMemberKeys(req.em, session.accountId, member.userId);
    const creators = await keyCreators(req.em, keys);
    await render({
      member,
      keys: keys.map((key) => keyRow(key, creators.get(key.id))),
      formatTime,
    });
  }),

  definePage({
    need: 'owner',
    access: 'session',
    template: 'team',
    title: 'Team',
    method: 'post',
    path: '/app/team/members/:userId/remove',
    audit: { action: 'member.removed', target: 'user' },
  }).handle(async (page, ctx) => {
    const { req, res, params, session } = page;
    if (!MEMBER_PATH.test(params.userId))
      return showTeam(page, { status: 404, data: { error: 'No such member.' } });
    const email = await memberEmail(page);
    // Unchecked (the default) revokes: keeping a former member's keys is a choice.
    const keepKeys = body(req).keep_keys === 'yes';
    page.audit.summary = `${email} removed${keepKeys ? ', their API keys kept' : ''}`;
    const revoked = await change(page, () =>
      removeMember(req.em, {
        accountId: session.accountId,
        userId: params.userId,
        keepKeys,
        by: changedBy(page),
      }),
    );
    if (!revoked) return;
    const stillWorking = () => listMemberKeys(req.em, session.accountId, params.userId);
    const kept = keepKeys ? (await stillWorking()).length : 0;
    tellKeyChange(res, ctx, { member: email, revoked: revoked.length, kept });
    done(res, ctx, 'member_removed');
  }),
];
