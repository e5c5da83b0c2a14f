import type { Request, Response } from 'express';
import type { Form } from '../../../db/entities';
import { LimitReachedError, limitReachedOrThrow } from '../../../domain/budgets/limit-reached';
import {
  createWebhookPlugin,
  deletePlugin,
  listFormPlugins,
  rotateSigningSecret,
  setPluginEnabled,
} from '../../../domain/plugins/plugins';
import { validateWebhookUrl } from '../../../domain/plugins/webhook-url';
import { pluginRecipientLookup } from '../../../domain/recipients/recipient-states';
import { SIGNATURE_HEADERS } from '../../../domain/webhooks/signatures';
import type { AppContext } from '../../../runtime/app-context';
import type { DashboardPages } from '../app-page';
import { sendAppPage } from '../app-page';
import { setFlash } from '../flash';
import { formatTime } from '../format-time';
import { revealOnce } from '../reveal-once';
import { ownedForm, ownedWebhook } from './owned';
import { EMPTY_TYPED_DRAFT, type TypedPluginDraft } from './plugin-types';

/** A form has few plugins; one page shows them all. */
const MAX_WEBHOOKS_SHOWN = 100;

type WebhooksView = {
  status?: number;
  error?: string[];
  draft?: { url: string; name: string };
  /** The e-mail, Slack or Discord form as submitted, with its errors by field. */
  typed?: TypedPluginDraft;
};

export async function sendWebhooks(
  req: Request,
  res: Response,
  form: Form,
  view: WebhooksView = {},
) {
  const { rows } = await listFormPlugins(req.em, form.id, { page: 1, perPage: MAX_WEBHOOKS_SHOWN });
  const recipientsOf = await pluginRecipientLookup(req.em, form.accountId, rows);
  await sendAppPage(
    req,
    res,
    { status: view.status, template: 'webhooks', title: `Plugins · ${form.name}` },
    {
      form,
      plugins: rows,
      recipientsOf,
      webhooks: rows.filter((p) => p.pluginType === 'webhook'),
      typed: view.typed ?? EMPTY_TYPED_DRAFT,
      errors: view.error ?? [],
      draft: view.draft ?? { url: '', name: '' },
      headers: SIGNATURE_HEADERS,
      formatTime,
    },
  );
}

/** Checks a URL exactly as `POST /api/forms/{id}/plugins` does, loop check included. */
function checkUrl(ctx: AppContext, url: unknown) {
  return validateWebhookUrl(url, {
    allowList: ctx.webhookAllowList,
    lookup: ctx.lookupHost,
    ownUrls: [ctx.urls.base, ctx.urls.ingest],
  });
}

const field = (req: Request, name: string): string => {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
};

/**
 * `/app/forms/{id}/webhooks`: a form's plugins of every type (e-mail, Slack and Discord are
 * added by pages/plugin-types.ts); webhooks: create (the URL checked as the API checks it),
 * enable / disable, rotate the secret (shown once), delete, and the signature snippets.
 */
export const webhookPages: DashboardPages = (router, ctx) => {
  const base = (form: Form) => `/app/forms/${form.id}/webhooks`;

  router.get('/app/forms/:formId/webhooks', async (req, res) => {
    const form = await ownedForm(req, res, req.params.formId);
    if (form) await sendWebhooks(req, res, form);
  });

  router.post('/app/forms/:formId/webhooks', async (req, res) => {
    const form = await ownedForm(req, res, req.params.formId);
    if (!form) return;
    const draft = { url: field(req, 'url').trim(), name: field(req, 'name').trim().slice(0, 200) };
    const checked = await checkUrl(ctx, draft.url);
    if (!checked.ok)
      return sendWebhooks(req, res, form, { status: 422, error: checked.errors, draft });
    const created = await createWebhookPlugin(
      req.em,
      ctx.signingSecrets,
      { formId: form.id, url: checked.url, name: draft.name || undefined },
      ctx.config.budgets.pluginsPerForm,
    ).catch(limitReachedOrThrow);
    if (created instanceof LimitReachedError)
      return sendWebhooks(req, res, form, { status: 409, error: [created.message], draft });
    const { plugin, signingSecret } = created;
    const revealed = { plugin: { name: plugin.name }, secret: signingSecret, rotated: false };
    revealOnce(res, ctx, base(form), { revealed });
    res.redirect(303, base(form));
  });

  router.post('/app/forms/:formId/webhooks/:pluginId/:action', async (req, res, next) => {
    const owned = await ownedWebhook(req, res, req.params);
    if (!owned) return;
    const { form, plugin } = owned;
    switch (req.params.action) {
      case 'enable':
      case 'disable':
        await setPluginEnabled(req.em, plugin, req.params.action === 'enable');
        setFlash(res, ctx.urls.base, plugin.enabled ? 'webhook_enabled' : 'webhook_disabled');
        return res.redirect(303, base(form));
      case 'delete':
        await deletePlugin(req.em, plugin);
        setFlash(res, ctx.urls.base, 'webhook_deleted');
        return res.redirect(303, base(form));
      case 'rotate': {
        const secret = await rotateSigningSecret(req.em, ctx.signingSecrets, plugin);
        revealOnce(res, ctx, base(form), {
          revealed: { plugin: { name: plugin.name }, secret, rotated: true },
        });
        return res.redirect(303, base(form));
      }
      default:
        return next();
    }
  });
};
