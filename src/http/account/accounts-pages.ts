import { z } from 'zod';
import { LimitReachedError, limitReachedOrThrow } from '../../domain/budgets/limit-reached';
import { createOwnAccount, switchSessionAccount } from '../../domain/accounts/memberships';
import { definePage } from '../kit/routing/define-page';
import { setFlash } from '../kit/session/flash';

const switchForm = z.object({ account: z.string().regex(/^\d{1,18}$/) });
const createForm = z.object({ name: z.string().trim().min(1).max(200) });

const refusal = (lines: string[]) => ({
  lines,
  error: true,
  link: { href: '/app', label: 'Overview' },
});

/**
 * The header's account switcher (docs/teams.md): moves the session to another account of
 * its user; and a new account of one's own, its owner.
 */
export const accountPages = [
  definePage({
    need: 'member',
    access: 'session',
    method: 'post',
    path: '/app/accounts/switch',
    // Recorded in the account switched to: who came in, from which account.
    audit: { action: 'session.account_switched', target: 'account' },
    template: 'message',
    title: 'Account not switched',
  }).handle(async ({ req, res, session, render, audit }, ctx) => {
    const parsed = switchForm.safeParse(req.body ?? {});
    if (!parsed.success || !(await switchSessionAccount(req.em, session, parsed.data.account)))
      return render(refusal(['You are not a member of that account.']), { status: 404 });
    const accountId = parsed.data.account;
    Object.assign(audit, { actor: { accountId, userId: session.userId }, targetId: accountId });
    audit.summary = `came from ${session.accountName}`;
    setFlash(res, ctx.urls.base, 'account_switched');
    res.redirect(303, '/app');
  }),

  definePage({
    need: 'member',
    access: 'session',
    method: 'post',
    path: '/app/accounts',
    audit: { action: 'account.created', target: 'account' },
    template: 'message',
    title: 'Account not created',
  }).handle(async ({ req, res, session, render, audit }, ctx) => {
    const parsed = createForm.safeParse(req.body ?? {});
    if (!parsed.success) return render(refusal(['Give the account a name.']), { status: 422 });
    const accountId = await createOwnAccount(
      req.em,
      session.userId,
      parsed.data.name,
      ctx.config.budgets.accountsPerUser,
    ).catch(limitReachedOrThrow);
    if (accountId instanceof LimitReachedError)
      return render(refusal([accountId.message]), { status: 409 });
    Object.assign(audit, { actor: { accountId, userId: session.userId }, targetId: accountId });
    audit.summary = parsed.data.name;
    await switchSessionAccount(req.em, session, accountId);
    setFlash(res, ctx.urls.base, 'account_created');
    res.redirect(303, '/app');
  }),
];
