import { countSubmissionsByForm } from '../../domain/forms/form-counts';
import { listAccountForms } from '../../domain/forms/forms';
import { accountStats } from '../../domain/stats/account-stats';
import { activityOf, type Activity } from '../../domain/stats/activity-series';
import { formStats } from '../../domain/stats/form-stats';
import { definePage } from '../kit/routing/define-page';
import { formRef } from '../forms/page-views';
import type { ChartSeries } from '../kit/chrome/template-data';
import { ownedForm } from '../forms/owned';

/** Forms listed on the account's stats page (the forms page has them all). */
const FORMS_LISTED = 50;

/**
 * The series the charts draw (assets/stats-charts.js), as one data-* attribute: numbers and
 * dates only, HTML-escaped like any attribute, so no inline script is needed.
 */
function chartSeries(activity: Activity): ChartSeries {
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
export const statsPages = [
  definePage({
    need: 'member',
    method: 'get',
    path: '/app/stats',
    access: 'session',
    template: 'stats',
    title: 'Stats',
  }).handle(async ({ req, session, render }) => {
    const { accountId } = session;
    const [stats, activity, forms] = await Promise.all([
      accountStats(req.em, accountId),
      activityOf(req.em, { accountId }),
      listAccountForms(req.em, accountId, { page: 1, perPage: FORMS_LISTED }),
    ]);
    const counts = await countSubmissionsByForm(
      req.em,
      forms.rows.map((f) => f.id),
    );
    await render({
      stats,
      activity,
      series: chartSeries(activity),
      forms: forms.rows.map((form) => ({ form: formRef(form), counts: counts(form.id) })),
      moreForms: forms.total - forms.rows.length,
    });
  }),

  definePage({
    need: 'member',
    method: 'get',
    path: '/app/forms/:formId/stats',
    access: 'session',
    template: 'form-stats',
    title: (data) => `Stats · ${data.form.name}`,
  }).handle(async ({ req, res, params, render }) => {
    const form = await ownedForm(req, res, params.formId);
    if (!form) return;
    const [stats, activity] = await Promise.all([
      formStats(req.em, form),
      activityOf(req.em, { formId: form.id }),
    ]);
    await render({ form: formRef(form), stats, activity, series: chartSeries(activity) });
  }),
];
