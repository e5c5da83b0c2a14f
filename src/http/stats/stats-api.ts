import { findAccountForm } from '../../domain/forms/forms';
import { accountStats } from '../../domain/stats/account-stats';
import { formStats } from '../../domain/stats/form-stats';
import { envelope } from '../kit/answers/envelope';
import { notFound } from '../kit/errors/http-error';
import { link } from '../kit/answers/links';
import { defineRoute } from '../kit/routing/define-route';
import { accountStatsEnvelope, formStatsEnvelope } from './stats-view';

/** `/api/stats` (dashboard sessions only) and `/api/form_stats/{form_id}`. */
export const statsRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/stats',
    operationId: 'getAccountStats',
    tag: 'Stats',
    summary: 'Account stats',
    description: 'Form counts and non-spam submissions of the last 24 hours and 7 days.',
    access: 'session',
    responses: { 200: { description: 'the stats', body: accountStatsEnvelope } },
    errors: [],
  }).handle(async ({ req, principal }, ctx) => {
    const stats = await accountStats(req.em, principal.accountId);
    return {
      status: 200,
      body: envelope('stats', stats, [
        link('self', `${ctx.urls.base}/api/stats`),
        link('forms', `${ctx.urls.base}/api/forms`),
      ]),
    };
  }),
  defineRoute({
    method: 'get',
    path: '/api/form_stats/{form_id}',
    operationId: 'getFormStats',
    tag: 'Stats',
    summary: 'Stats of one form',
    description: 'Totals, recent counts and a 30-day daily series (UTC days).',
    access: 'any',
    responses: { 200: { description: 'the stats', body: formStatsEnvelope } },
    errors: ['not_found'],
  }).handle(async ({ req, params, principal }, ctx) => {
    const form = await findAccountForm(req.em, principal.accountId, params.form_id);
    if (!form) throw notFound('form');
    const stats = await formStats(req.em, form);
    return {
      status: 200,
      body: envelope('stats', stats, [
        link('self', `${ctx.urls.base}/api/form_stats/${form.id}`),
        link('form', `${ctx.urls.base}/api/forms/${form.id}`),
      ]),
    };
  }),
];
