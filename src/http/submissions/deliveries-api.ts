import type { Request } from 'express';
import { can } from '../../domain/accounts/principal';
import { findAccountForm } from '../../domain/forms/forms';
import { pluginConfigAccess, visibleAttempt } from '../../plugins/manage/plugin-config-visibility';
import { findFormPlugin } from '../../plugins/manage/plugins';
import { listAttempts } from '../../domain/deliveries/delivery-records';
import { replaySubmission } from '../../domain/deliveries/replay-submission';
import { envelope, listAnswer } from '../kit/answers/envelope';
import { HttpError, notFound, rateLimited, temporalUnavailable } from '../kit/errors/http-error';
import { link, type Link } from '../kit/answers/links';
import { viewsWithinBudget } from '../kit/answers/list-byte-budget';
import {
  budgetKeyset,
  cursorListQuery,
  cursorPage,
  type CursorListQuery,
} from '../kit/answers/list-cursor';
import { MAX_PER_PAGE, pageMetaAndLinks } from '../kit/answers/pagination';
import { defineRoute, type RouteContext } from '../kit/routing/define-route';
import { LIST_HEADERS } from '../kit/answers/headers';
import { findReadableSubmission } from './submission-access';
import { deliveryListEnvelope, deliveryView, replayEnvelope } from './delivery-view';

/**
 * One page of the delivery log of a submission or of a plugin (docs/webhook-delivery.md), held
 * to LIST_MAX_BYTES like every list: cut short where the next attempt would pass it (stored
 * answers are up to 4 KB, several times that once escaped), going on by cursor.
 */
async function attemptsPage(
  req: Request,
  query: CursorListQuery,
  ctx: RouteContext,
  self: string,
  filter: { submissionId?: string; pluginId?: string },
  extraLinks: Link[],
) {
  const { cursor } = query;
  const page = cursorPage(query);
  const { rows, total, more } = await listAttempts(
    req.em,
    { accountId: req.principal!.accountId, ...filter },
    { ...page, after: cursor },
  );
  const access = pluginConfigAccess((scope) => can(req.principal!, scope));
  const maxBytes = ctx.config.listMaxBytes;
  const { views, cut } = viewsWithinBudget(
    rows,
    (row) => deliveryView(visibleAttempt(row.attempt, access), ctx.urls),
    maxBytes,
  );
  // Once a page is cut, or the request came with a cursor, the log goes on by keyset.
  const last = rows[views.length - 1]?.position;
  const keyset = budgetKeyset({ page, cursor }, { last, cut, more }, maxBytes);
  const list = pageMetaAndLinks(self, new URLSearchParams(), page, total, keyset);
  list.links.push(...extraLinks);
  return listAnswer('deliveries', views, list);
}

const deliveryLog = <P extends string>(
  path: P,
  operationId: string,
  summary: string,
  description: string,
) =>
  defineRoute({
    method: 'get',
    path,
    operationId,
    tag: 'Deliveries',
    summary,
    description:
      `${description} One page at a time (at most ${MAX_PER_PAGE} a page), also cut short where ` +
      "its attempts would pass the answer's byte budget (`LIST_MAX_BYTES`; `meta.truncated`, " +
      '`meta.max_bytes`); its `next` link then carries a `cursor` that continues right after ' +
      'the last attempt returned.',
    access: 'can_read_submissions',
    query: cursorListQuery,
    responses: {
      200: {
        description: 'one page of attempts',
        body: deliveryListEnvelope,
        headers: LIST_HEADERS,
      },
    },
    errors: ['not_found'],
  });

/**
 * The delivery log (every attempt, docs/webhook-delivery.md) of a submission or of a plugin, and replay:
 * a new workflow that delivers a submission to its form's plugins again.
 */
export const deliveryRoutes = [
  deliveryLog(
    '/api/submissions/{id}/deliveries',
    'listSubmissionDeliveries',
    "A submission's delivery log",
    'Every delivery attempt of the submission to its plugins, newest first: status, HTTP ' +
      'status, error, duration and the answer cut at 4 KB.',
  ).handle(async ({ req, params, query }, ctx) => {
    const submission = await findReadableSubmission(req, params.id);
    const base = `${ctx.urls.base}/api/submissions/${submission.id}`;
    return attemptsPage(req, query, ctx, `${base}/deliveries`, { submissionId: submission.id }, [
      link('submission', base),
    ]);
  }),
  defineRoute({
    method: 'post',
    path: '/api/submissions/{id}/replay',
    operationId: 'replaySubmission',
    tag: 'Deliveries',
    summary: 'Deliver a submission again',
    description:
      'Starts a new workflow that delivers the submission to every enabled plugin of its form ' +
      'again, with the same retry policy; its attempts are recorded with `is_replay`. Spam ' +
      'submissions are not delivered and cannot be replayed. An account may start ' +
      '`REPLAY_RATE` replays a minute (30 by default), counted per owner over the accounts ' +
      'they own: past it, 429 `rate_limited` with `Retry-After`.',
    audit: { action: 'submission.replayed', target: 'submission' },
    access: 'can_create_forms',
    responses: { 202: { description: 'the replay started', body: replayEnvelope } },
    errors: ['not_found', 'validation_failed', 'rate_limited', 'unavailable'],
  }).handle(async ({ req, params, principal, audit }, ctx) => {
    const replayed = await replaySubmission(req.em, ctx, principal.accountId, params.id);
    if (replayed.outcome === 'not_found') throw notFound('submission');
    if (replayed.outcome === 'spam') {
      throw new HttpError(
        'validation_failed',
        'spam submissions are not delivered, so they cannot be replayed',
      );
    }
    if (replayed.outcome === 'rate_limited') {
      throw rateLimited(
        `This account’s owner used their REPLAY_RATE of ${replayed.perMinute} replays a minute (per owner, across the accounts they own); try again in ${replayed.retryAfterSeconds} s.`,
        replayed.retryAfterSeconds,
      );
    }
    if (replayed.outcome === 'unavailable') throw temporalUnavailable();
    Object.assign(audit, replayed.audit);
    const self = `${ctx.urls.base}/api/submissions/${replayed.submissionId}`;
    const links = [link('deliveries', `${self}/deliveries`), link('submission', self)];
    const replay = {
      submission_id: replayed.submissionId,
      workflow_id: replayed.workflowId,
      run_id: replayed.runId,
      links,
    };
    return { status: 202, body: envelope('replay', replay, links) };
  }),
  deliveryLog(
    '/api/forms/{form_id}/plugins/{id}/deliveries',
    'listPluginDeliveries',
    "A plugin's delivery log",
    'Every delivery attempt to this plugin, newest first.',
  ).handle(async ({ req, params, query, principal }, ctx) => {
    const form = await findAccountForm(req.em, principal.accountId, params.form_id);
    if (!form) throw notFound('form');
    const plugin = await findFormPlugin(req.em, form.id, params.id);
    if (!plugin) throw notFound('plugin');
    const base = `${ctx.urls.base}/api/forms/${form.id}/plugins/${plugin.id}`;
    return attemptsPage(req, query, ctx, `${base}/deliveries`, { pluginId: plugin.id }, [
      link('plugin', base),
    ]);
  }),
];
