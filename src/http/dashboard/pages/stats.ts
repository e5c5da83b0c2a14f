import { countSubmissionsByForm } from '../../../domain/forms/form-counts';
import { listAccountForms } from '../../../domain/forms/forms';
import { accountStats } from '../../../domain/stats/account-stats';
import { activityOf, type Activity } from '../../../domain/stats/activity-series';
import { formStats } from '../../../domain/stats/form-stats';
import type { DashboardPages } from '../app-page';
import { sendAppPage } from '../app-page';
import { sessionOf } from '../session-guard';
import { ownedForm } from './owned';

/** Forms listed on the account's stats page (the forms page has them all). */
const FORMS_LISTED = 50;

/**
 * The series the charts draw (assets/stats-charts.js), as one data-* attribute: numbers and
 * dates only, HTML-escaped like any attribute, so no inline script is needed.
 */
function chartSeries(activity: Activity) {
  return {
    dates: activity.days.map((d) => d.date),
    submissions: activity.days.map((d) => d.submissions),
    spam: activity.days.map((d) => d.spam),
    succeeded: activity.days.map((d) => d.succeeded),
    failed: activity.days.map((d) => d.failed),
    medianMs: activity.days.map((d) => d.medianMs),
    p95Ms: activity.days.map((d) => d.p95Ms),
  };
}

/** `/app/stats` (the account's) and `/app/forms/{id}/stats`: the numbers as tables, and charts. */
export const statsPages: DashboardPages = (router) => {
  router.get('/app/stats', async (req, res) => {
    const { accountId } = sessionOf(res);
    const [stats, activity, forms] = await Promise.all([
      accountStats(req.em, accountId),
      activityOf(req.em, { accountId }),
      listAccountForms(req.em, accountId, { page: 1, perPage: FORMS_LISTED }),
    ]);
    const counts = await countSubmissionsByForm(
      req.em,
      forms.rows.map((f) => f.id),
    );
    await sendAppPage(
      req,
      res,
      { template: 'stats', title: 'Stats' },
      {
        stats,
        activity,
        series: chartSeries(activity),
        forms: forms.rows.map((form) => ({ form, counts: counts(form.id) })),
        moreForms: forms.total - forms.rows.length,
      },
    );
  });

  router.get('/app/forms/:formId/stats', async (req, res) => {
    const form = await ownedForm(req, res, req.params.formId);
    if (!form) return;
    const [stats, activity] = await Promise.all([
      formStats(req.em, form),
      activityOf(req.em, { formId: form.id }),
    ]);
    await sendAppPage(
      req,
      res,
      { template: 'form-stats', title: `Stats · ${form.name}` },
      { form, stats, activity, series: chartSeries(activity) },
    );
  });
};
