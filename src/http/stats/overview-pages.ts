import { accountStats } from '../../domain/stats/account-stats';
import { definePage } from '../kit/routing/define-page';
import { formatTime } from '../kit/chrome/format-time';
import { offerViews } from '../account/invitation-offer-views';

/**
 * `/app`: the account at a glance, invitations waiting for the user (to accept or decline),
 * and where the API is documented.
 */
export const overviewPages = [
  definePage({
    need: 'member',
    method: 'get',
    path: '/app',
    access: 'session',
    template: 'overview',
    title: 'Overview',
  }).handle(async ({ req, session, render }) => {
    const [stats, offers] = await Promise.all([
      accountStats(req.em, session.accountId),
      offerViews(req.em, session),
    ]);
    const { accountName, accountId } = session;
    await render({ stats, accountName, accountId, offers, formatTime });
  }),
];
