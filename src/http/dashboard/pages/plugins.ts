import type { Form, Plugin } from '../../../domain/entities';
import { limitReachedOrThrow } from '../../../domain/budgets/limit-reached';
import { createPlugin, PluginConfigRefusedError } from '../../../domain/plugins/create-plugin';
import { deletePlugin } from '../../../domain/plugins/delete-plugin';
import { rotateSigningSecret, setPluginEnabled } from '../../../domain/plugins/plugins';
import type { AppContext } from '../../../runtime/app-context';
import type { Response } from 'express';
import type { UseCaseAudit } from '../../../domain/audit/use-case-audit';
import { definePage } from '../define-page';
import { setFlash } from '../flash';
import { revealOnce } from '../reveal-once';
import { ownedForm, ownedWebhook } from './owned';
import { bodyField, PLUGINS_PAGE, pluginsPageData } from './plugin-list';

const pluginsPath = (form: Form) => `/app/forms/${form.id}/webhooks`;

/** What each webhook action records in the audit log. */
const WEBHOOK_ACTIONS = {
  enable: 'webhook.enabled',
  disable: 'webhook.disabled',
  delete: 'webhook.deleted',
  rotate: 'webhook.secret_rotated',
} as const;

/**
 * A webhook's action (`/app/forms/{id}/webhooks/{pluginId}/<action>`): it redirects back.
 * `run` answers false when the action changed nothing (no audit entry), or the use case's
 * audit details.
 */
function webhookAction(
  action: keyof typeof WEBHOOK_ACTIONS,
  run: (
    res: Response,
    owned: { form: Form; plugin: Plugin },
    ctx: AppContext,
  ) => Promise<boolean | UseCaseAudit | void>,
) {
  return definePage({
    need: 'can_create_forms',
    method: 'post',
    path: `/app/forms/:formId/webhooks/:pluginId/${action}`,
    audit: { action: WEBHOOK_ACTIONS[action], target: 'plugin' },
    access: 'session',
  }).handle(async ({ req, res, params, audit }, ctx) => {
    const owned = await ownedWebhook(req, res, params);
    if (!owned) return;
    const outcome = await run(res, owned, ctx);
    if (typeof outcome === 'object') Object.assign(audit, outcome);
    else audit.skip = outcome === false;
    res.redirect(303, pluginsPath(owned.form));
  });
}

const toggle = (enabled: boolean) =>
  webhookAction(enabled ? 'enable' : 'disable', async (res, { plugin }, ctx) => {
    const changed = await setPluginEnabled(res.req.em, plugin, enabled);
    setFlash(res, ctx.urls.base, plugin.enabled ? 'webhook_enabled' : 'webhook_disabled');
    return changed;
  });

/**
 * `/app/forms/{id}/webhooks`: a form's plugins of every type (e-mail, Slack and Discord are
 * added by pages/plugin-types.ts); webhooks: create (the URL checked by the API's own
 * checkWebhookUrl), enable / disable, rotate the secret (shown once), delete, and the
 * signature snippets.
 */
export const pluginPages = [
  definePage({
    need: 'member',
    ...PLUGINS_PAGE,
    method: 'get',
    path: '/app/forms/:formId/webhooks',
  }).handle(async ({ req, res, params, session, render }) => {
    const form = await ownedForm(req, res, params.formId);
    if (form) await render(await pluginsPageData(req, session, form));
  }),

  definePage({
    need: 'can_create_forms',
    ...PLUGINS_PAGE,
    method: 'post',
    path: '/app/forms/:formId/webhooks',
    audit: { action: 'webhook.created', target: 'plugin' },
  }).handle(async ({ req, res, params, session, render, audit }, ctx) => {
    const form = await ownedForm(req, res, params.formId);
    if (!form) return;
    const draft = {
      url: bodyField(req, 'url').trim(),
      name: bodyField(req, 'name').trim().slice(0, 200),
    };
    const created = await createPlugin(req.em, ctx, form, {
      type: 'webhook',
      url: draft.url,
      name: draft.name || undefined,
    }).catch((error: unknown) => {
      if (error instanceof PluginConfigRefusedError) return { status: 422, error: error.problems };
      return { status: 409, error: [limitReachedOrThrow(error).message] };
    });
    if ('error' in created)
      return render(await pluginsPageData(req, session, form, { error: created.error, draft }), {
        status: created.status,
      });
    const { plugin, signingSecret } = created;
    Object.assign(audit, created.audit);
    const revealed = { plugin: { name: plugin.name }, secret: signingSecret, rotated: false };
    revealOnce(res, ctx, pluginsPath(form), { revealed });
    res.redirect(303, pluginsPath(form));
  }),

  toggle(true),
  toggle(false),
  webhookAction('delete', async (res, { plugin }, ctx) => {
    const { audit } = await deletePlugin(res.req.em, plugin);
    setFlash(res, ctx.urls.base, 'webhook_deleted');
    return audit;
  }),
  webhookAction('rotate', async (res, { form, plugin }, ctx) => {
    const secret = await rotateSigningSecret(res.req.em, ctx.signingSecrets, plugin);
    revealOnce(res, ctx, pluginsPath(form), {
      revealed: { plugin: { name: plugin.name }, secret, rotated: true },
    });
  }),
];
