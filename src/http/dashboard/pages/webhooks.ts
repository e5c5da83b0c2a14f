import type { Request, Response } from 'express';
import type { Form, Plugin } from '../../../db/entities';
import {
  createWebhookPlugin,
  deletePlugin,
  listFormPlugins,
  rotateSigningSecret,
  setPluginEnabled,
} from '../../../domain/plugins/plugins';
import { validateWebhookUrl } from '../../../domain/plugins/webhook-url';
import { SIGNATURE_HEADERS } from '../../../domain/webhooks/signatures';
import type { AppContext } from '../../../runtime/app-context';
import type { DashboardPages } from '../app-page';
import { sendAppPage } from '../app-page';
import { setFlash } from '../flash';
import { formatTime } from '../format-time';
import { ownedForm, ownedWebhook } from './owned';

/** A form has few webhooks; one page shows them all. */
const MAX_WEBHOOKS_SHOWN = 100;

type WebhooksView = {
  status?: number;
  /** The secret of a webhook just created or rotated: shown on this answer only. */
  revealed?: { plugin: Plugin; secret: string; rotated: boolean };
  error?: string[];
  draft?: { url: string; name: string };
};

async function sendWebhooks(req: Request, res: Response, form: Form, view: WebhooksView = {}) {
  const { rows } = await listFormPlugins(req.em, form.id, { page: 1, perPage: MAX_WEBHOOKS_SHOWN });
  await sendAppPage(
    req,
    res,
    { status: view.status, template: 'webhooks', title: `Webhooks · ${form.name}` },
    {
      form,
      webhooks: rows.filter((p) => p.pluginType === 'webhook'),
      revealed: view.revealed,
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
 * `/app/forms/{id}/webhooks`: a form's webhooks; create (the URL checked as the API checks
 * it), enable / disable, rotate the secret (shown once), delete, and the signature snippets.
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
    const { plugin, signingSecret } = await createWebhookPlugin(req.em, ctx.signingSecrets, {
      formId: form.id,
      url: checked.url,
      name: draft.name || undefined,
    });
    await sendWebhooks(req, res, form, {
      status: 201,
      revealed: { plugin, secret: signingSecret, rotated: false },
    });
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
        return sendWebhooks(req, res, form, { revealed: { plugin, secret, rotated: true } });
      }
      default:
        return next();
    }
  });
};
