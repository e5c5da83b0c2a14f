import type { Request } from 'express';
import { findAccountSubmission } from '../../domain/submissions/submission-queries';
import { listAttempts } from '../../domain/deliveries/delivery-records';
import { replaySubmission } from '../../domain/deliveries/replay-submission';
import { pluginConfigAccess, visibleAttempt } from '../../plugins/manage/plugin-config-visibility';
import type { AppContext } from '../../runtime/app-context';
import { definePage } from '../kit/routing/define-page';
import { setFlash } from '../kit/session/flash';
import { pluginRow, formRef } from '../forms/page-views';
import type { DashboardSession } from '../kit/session/session-guard';
import type { LogPage } from '../kit/chrome/template-data';
import { temporalUiLinks } from './temporal-ui';
import { ownedPlugin, pageNumber, sendNotFound } from '../forms/owned';

const PER_PAGE = 25;

/** One page of the attempts of a submission or of a plugin, within the signed-in account. */
async function logPage(
  req: Request,
  session: DashboardSession,
  filter: { submissionId?: string; pluginId?: string },
): Promise<LogPage> {
  const page = pageNumber(req);
  const { rows, total } = await listAttempts(
    req.em,
    { accountId: session.accountId, ...filter },
    { page, perPage: PER_PAGE },
  );
  const access = pluginConfigAccess((scope) => session.scopes.has(scope));
  return {
    rows: rows.map((row) => visibleAttempt(row.attempt, access)),
    total,
    page,
    pages: Math.max(1, Math.ceil(total / PER_PAGE)),
  };
}

const temporalOf = (ctx: AppContext) =>
  temporalUiLinks(ctx.temporalUiUrl, ctx.config.temporal.namespace);

/**
 * The delivery log: every attempt with its status, HTTP status, duration, error and stored
 * answer (4 KB, as text), per submission (with replay) and per plugin; links into the
 * Temporal UI when its address is known.
 */
export const deliveryPages = [
  definePage({
    need: 'can_read_submissions',
    method: 'get',
    path: '/app/submissions/:id/deliveries',
    access: 'session',
    template: 'submission-deliveries',
    title: (data) => `Deliveries of submission ${data.submissionId}`,
  }).handle(async ({ req, res, params, session, render }, ctx) => {
    const submission = await findAccountSubmission(req.em, session.accountId, params.id);
    const hidden = submission?.is_spam && !session.scopes.has('can_read_spam_submissions');
    if (!submission || hidden) return sendNotFound(req, res, 'submission');
    const submissionId = String(submission.id);
    const temporal = temporalOf(ctx);
    await render({
      submissionId,
      formId: String(submission.form_id),
      isSpam: submission.is_spam,
      log: await logPage(req, session, { submissionId }),
      temporal,
      workflowsUrl: temporal?.submission(submissionId),
    });
  }),

  definePage({
    need: 'can_create_forms',
    method: 'post',
    path: '/app/submissions/:id/replay',
    audit: { action: 'submission.replayed', target: 'submission' },
    access: 'session',
  }).handle(async ({ req, res, params, session, audit }, ctx) => {
    const replayed = await replaySubmission(req.em, ctx, session.accountId, params.id);
    if (replayed.outcome === 'not_found') return sendNotFound(req, res, 'submission');
    // A replay that did not start changed nothing: no audit entry (the API answers an error).
    if (replayed.outcome === 'started') Object.assign(audit, replayed.audit);
    else audit.skip = true;
    const flash = {
      started: 'replay_started',
      spam: 'replay_spam',
      rate_limited: 'replay_rate_limited',
      unavailable: 'replay_unavailable',
    } as const;
    setFlash(res, ctx.urls.base, flash[replayed.outcome]);
    res.redirect(303, `/app/submissions/${encodeURIComponent(params.id)}/deliveries`);
  }),

  definePage({
    need: 'can_read_submissions',
    method: 'get',
    path: '/app/forms/:formId/plugins/:pluginId/deliveries',
    access: 'session',
    template: 'plugin-deliveries',
    title: (data) => `Deliveries · ${data.plugin.name}`,
  }).handle(async ({ req, res, params, session, render }, ctx) => {
    const owned = await ownedPlugin(req, res, params);
    if (!owned) return;
    await render({
      form: formRef(owned.form),
      plugin: pluginRow(owned.plugin, session),
      log: await logPage(req, session, { pluginId: owned.plugin.id }),
      temporal: temporalOf(ctx),
    });
  }),
];
