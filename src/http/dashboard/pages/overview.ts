import { accountStats } from '../../../domain/stats/account-stats';
import type { DashboardPages } from '../app-page';
import { sendAppPage } from '../app-page';
import { sessionOf } from '../session-guard';

/** `/app`: the account at a glance, and where the API is documented. */
export const overviewPages: DashboardPages = (router) => {
  router.get('/app', async (req, res) => {
    const session = sessionOf(res);
    const stats = await accountStats(req.em, session.accountId);
    await sendAppPage(
      req,
      res,
      { template: 'overview', title: 'Overview' },
      {
        stats,
        accountName: session.accountName,
        accountId: session.accountId,
      },
    );
  });
};
