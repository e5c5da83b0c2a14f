import { accountStats } from '../../../domain/stats/account-stats';
import { definePage } from '../define-page';

/** `/app`: the account at a glance, and where the API is documented. */
export const overviewPages = [
  definePage({
    need: 'member',
    method: 'get',
    path: '/app',
    access: 'session',
    template: 'overview',
    title: 'Overview',
  }).handle(async ({ req, session, render }) => {
    const stats = await accountStats(req.em, session.accountId);
    await render({ stats, accountName: session.accountName, accountId: session.accountId });
  }),
];
