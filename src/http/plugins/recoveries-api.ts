import { findRecovery, sinceProblem, startRecovery } from '../../plugins/manage/recovery';
import { envelope } from '../kit/answers/envelope';
import {
  HttpError,
  notFound,
  temporalUnavailable,
  validationFailed,
} from '../kit/errors/http-error';
import { defineRoute } from '../kit/routing/define-route';
import { link } from '../kit/answers/links';
import { pluginOf } from './plugins-api';
import { recoverBody, recoveryEnvelope, recoveryPath, recoveryView } from './recovery-view';

/** Recovery of a plugin's failed deliveries (docs/recovery.md): start a run, read its progress. */
export const recoveryRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/forms/{form_id}/plugins/{id}/recover',
    operationId: 'recoverPluginDeliveries',
    tag: 'Deliveries',
    summary: "Recover a plugin's failed deliveries",
    description:
      'Delivers again, to this plugin only and at a bounded rate, every non-spam submission ' +
      'created since `since` (at most 90 days ago) whose last delivery to it failed or was ' +
      'skipped, each under the same `webhook-id` as its failed attempts, which stay in the ' +
      'log; the new attempts number on. Answers with the count and the run, whose `self` link ' +
      'reads its progress. A disabled plugin must be enabled first (`plugin_disabled`). One run ' +
      'at a time per plugin: while one runs, 409 `recovery_running` with a `recovery` link to it.',
    audit: { action: 'plugin.recovery_started', target: 'plugin' },
    access: 'can_create_forms',
    body: { schema: recoverBody, mediaTypes: ['application/json'], required: true },
    responses: {
      202: {
        description: 'the run started (or, with nothing to recover, completed at once)',
        body: recoveryEnvelope,
        headers: { Location: 'the run, for its progress' },
      },
    },
    errors: ['not_found', 'plugin_disabled', 'recovery_running', 'unavailable'],
  }).handle(async ({ req, params, body, principal }, ctx) => {
    const now = new Date();
    const since = new Date(body.since);
    const problem = sinceProblem(since, now);
    if (problem) throw validationFailed([`since: ${problem}`]);
    const plugin = await pluginOf(req, params);
    const started = await startRecovery(req.em, ctx.recoveries, {
      accountId: principal.accountId,
      plugin,
      since,
      now,
    });
    if (started.outcome === 'disabled') {
      throw new HttpError(
        'plugin_disabled',
        'the plugin is disabled; enable it before recovering its deliveries',
      );
    }
    if (started.outcome === 'running') {
      const run = started.recovery;
      throw new HttpError(
        'recovery_running',
        `Recovery ${run.id} of this plugin is still running (${run.done + run.failed} of ${run.total} done); one recovery per plugin may run at a time. Start another once it ends.`,
        undefined,
        {},
        [link('recovery', `${ctx.urls.base}${recoveryPath(run)}`)],
      );
    }
    if (started.outcome === 'unavailable') {
      ctx.logger.warn({ err: started.error.message }, 'recovery could not start');
      throw temporalUnavailable();
    }
    const view = recoveryView(started.recovery, ctx.urls);
    return {
      status: 202,
      body: envelope('recovery', view, view.links),
      headers: { Location: view.links[0]!.href },
    };
  }),
  defineRoute({
    method: 'get',
    path: '/api/forms/{form_id}/plugins/{plugin_id}/recoveries/{id}',
    operationId: 'getPluginRecovery',
    tag: 'Deliveries',
    summary: "A recovery run's progress",
    description: 'How many of its submissions were delivered, how many still fail, and its status.',
    access: 'any',
    responses: { 200: { description: 'the run', body: recoveryEnvelope } },
    errors: ['not_found'],
  }).handle(async ({ req, params, principal }, ctx) => {
    const plugin = await pluginOf(req, { form_id: params.form_id, id: params.plugin_id });
    const run = await findRecovery(req.em, {
      id: params.id,
      pluginId: plugin.id,
      accountId: principal.accountId,
    });
    if (!run) throw notFound('recovery');
    const view = recoveryView(run, ctx.urls);
    return { status: 200, body: envelope('recovery', view, view.links) };
  }),
];
