import { clearCookieOptions, sessionCookieName } from '../kit/session/cookies';
import { countAccountContents, deleteAccount } from '../../domain/accounts/account-deletion';
import { clientAddress } from '../kit/middleware/client-address';
import { definePage } from '../kit/routing/define-page';
import { sendGuestPage } from '../kit/chrome/guest-page';

const DELETE = {
  need: 'owner',
  access: 'session',
  path: '/app/account/delete',
  template: 'account-delete',
  title: 'Delete the account',
} as const;

/**
 * `/app/account/delete` (owner only): names what goes and asks for the account's name;
 * the post deletes it all and ends the owner's session (docs/teams.md).
 */
export const accountDeletionPages = [
  definePage({ ...DELETE, method: 'get' }).handle(async ({ req, session, render }) => {
    const contents = await countAccountContents(req.em, session.accountId);
    await render({ accountName: session.accountName, contents });
  }),

  definePage({
    ...DELETE,
    method: 'post',
    // The account's log goes with it; the service's own log records who deleted it, below.
    audit: { exempt: 'deletes the account and its audit log with it; logged by the service' },
  }).handle(async ({ req, res, session, render }, ctx) => {
    const typed = (req.body as { name?: unknown } | undefined)?.name;
    if (typeof typed !== 'string' || typed.trim() !== session.accountName.trim()) {
      const contents = await countAccountContents(req.em, session.accountId);
      return render(
        {
          accountName: session.accountName,
          contents,
          error: 'Type the account’s name exactly to delete it.',
        },
        { status: 422 },
      );
    }
    await deleteAccount(req.em, ctx, session.accountId);
    ctx.logger.info(
      { accountId: session.accountId, userId: session.userId, client: clientAddress(req) },
      'account deleted by its owner',
    );
    res.clearCookie(sessionCookieName(ctx.urls.base), clearCookieOptions(ctx.urls.base));
    const page = { template: 'message' as const, title: 'Account deleted' };
    await sendGuestPage(req, res, ctx.urls.base, page, {
      lines: [
        `The account ${session.accountName} and everything in it are deleted; your session ended.`,
        'If you belong to other accounts, sign in again to use them.',
      ],
      link: { href: '/login', label: 'Sign in' },
    });
  }),
];
