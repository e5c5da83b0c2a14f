import type { Request } from 'express';
import type { Form, Plugin } from '../../domain/entities';
import {
  findRecovery,
  recentRecoveries,
  sinceProblem,
  startRecovery,
} from '../../plugins/manage/recovery';
import { definePage, type Render } from '../kit/routing/define-page';
import { formatTime } from '../kit/chrome/format-time';
import { formRef, pluginRow, type PluginViewer } from '../forms/page-views';
import { pluginPath } from './plugin-paths';
import { ownedPlugin, sendNotFound } from '../forms/owned';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A `datetime-local` value in UTC (`2026-11-27T14:05`), as the form shows and takes it. */
const localUtc = (date: Date) => date.toISOString().slice(0, 16);

/** The form's `since`: a `datetime-local` value read as UTC, or a full ISO date-time. */
function readSince(value: unknown): Date {
  const text = typeof value === 'string' ? value.trim() : '';
  const utc = /^\d{4}-\d\d-\d\dT\d\d:\d\d$/.test(text) ? `${text}:00Z` : text;
  return new Date(utc === '' ? NaN : utc);
}

type RecoverView = { status?: number; error?: string; since?: string; runningHref?: string };

async function sendRecoverPage(
  req: Request,
  viewer: PluginViewer,
  render: Render<'plugin-recover'>,
  owned: { form: Form; plugin: Plugin },
  view: RecoverView = {},
) {
  await render(
    {
      form: formRef(owned.form),
      plugin: pluginRow(owned.plugin, viewer),
      base: pluginPath(owned.form.id, owned.plugin.id),
      since: view.since ?? localUtc(new Date(Date.now() - DAY_MS)),
      error: view.error ?? null,
      runningHref: view.runningHref ?? null,
      runs: await recentRecoveries(req.em, owned.plugin.id),
      formatTime,
    },
    { status: view.status },
  );
}

const RECOVER = {
  access: 'session',
  path: '/app/forms/:formId/plugins/:pluginId/recover',
  template: 'plugin-recover',
  title: (data: { plugin: { name: string } }) => `Recover · ${data.plugin.name}`,
} as const;

/**
 * `/app/forms/{id}/plugins/{pluginId}/recover`: recover a plugin's failed deliveries since a
 * time (docs/recovery.md), whatever its type (each type's activity delivers again, as the
 * API's recover does), and each run's progress page (htmx refreshes it while it runs;
 * without JavaScript a reload does).
 */
export const recoveryPages = [
  definePage({ need: 'can_create_forms', ...RECOVER, method: 'get' }).handle(
    async ({ req, res, params, session, render }) => {
      const owned = await ownedPlugin(req, res, params);
      if (owned) await sendRecoverPage(req, session, render, owned);
    },
  ),

  definePage({
    need: 'can_create_forms',
    ...RECOVER,
    method: 'post',
    audit: { action: 'plugin.recovery_started', target: 'plugin' },
  }).handle(async ({ req, res, params, session, render }, ctx) => {
    const owned = await ownedPlugin(req, res, params);
    if (!owned) return;
    const field = (req.body as Record<string, unknown> | undefined)?.since;
    const now = new Date();
    const since = readSince(field);
    const problem = sinceProblem(since, now);
    const draft = typeof field === 'string' ? field.slice(0, 40) : '';
    if (problem)
      return sendRecoverPage(req, session, render, owned, {
        status: 422,
        error: `Since ${problem}.`,
        since: draft,
      });
    const started = await startRecovery(req.em, ctx.recoveries, {
      accountId: session.accountId,
      plugin: owned.plugin,
      since,
      now,
    });
    if (started.outcome === 'disabled') {
      const error = 'This plugin is disabled: enable it before recovering its deliveries.';
      return sendRecoverPage(req, session, render, owned, { status: 409, error, since: draft });
    }
    if (started.outcome === 'running') {
      const run = started.recovery;
      const error = `Recovery ${run.id} of this plugin is still running (${run.done + run.failed} of ${run.total} done): one recovery per plugin runs at a time. Start another once it ends.`;
      const runningHref = `${pluginPath(owned.form.id, owned.plugin.id)}/recoveries/${run.id}`;
      return sendRecoverPage(req, session, render, owned, {
        status: 409,
        error,
        since: draft,
        runningHref,
      });
    }
    if (started.outcome === 'unavailable') {
      ctx.logger.warn({ err: started.error.message }, 'recovery could not start');
      const error = 'The delivery engine (Temporal) is unreachable; try again shortly.';
      return sendRecoverPage(req, session, render, owned, { status: 503, error, since: draft });
    }
    const base = pluginPath(owned.form.id, owned.plugin.id);
    res.redirect(303, `${base}/recoveries/${started.recovery.id}`);
  }),

  definePage({
    need: 'member',
    method: 'get',
    path: '/app/forms/:formId/plugins/:pluginId/recoveries/:id',
    access: 'session',
    template: 'plugin-recovery',
    title: (data) => `Recovery ${data.run.id} · ${data.plugin.name}`,
  }).handle(async ({ req, res, params, session, render }) => {
    const owned = await ownedPlugin(req, res, params);
    if (!owned) return;
    const run = await findRecovery(req.em, {
      id: params.id,
      pluginId: owned.plugin.id,
      accountId: session.accountId,
    });
    if (!run) return sendNotFound(req, res, 'recovery run');
    await render({
      form: formRef(owned.form),
      plugin: pluginRow(owned.plugin, session),
      base: pluginPath(owned.form.id, owned.plugin.id),
      run,
      formatTime,
    });
  }),
];
