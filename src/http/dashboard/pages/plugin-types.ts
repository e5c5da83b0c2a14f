import type { Request } from 'express';
import type { Form } from '../../../db/entities';
import {
  checkPluginConfig,
  isDashboardPluginType,
  type DashboardPluginType,
} from '../../../domain/plugins/plugin-configs';
import { LimitReachedError, limitReachedOrThrow } from '../../../domain/budgets/limit-reached';
import { createTypedPlugin, deletePlugin, setPluginEnabled } from '../../../domain/plugins/plugins';
import { requestConfirmations } from '../../../domain/recipients/confirmations';
import type { DashboardPages } from '../app-page';
import { setFlash } from '../flash';
import { ownedForm, ownedPlugin } from './owned';
import { sendWebhooks } from './webhooks';

/** The add-a-plugin form as a person filled it in, and its errors by field. */
export type TypedPluginDraft = {
  type: DashboardPluginType;
  name: string;
  url: string;
  recipients: string;
  subject: string;
  errors: Record<string, string[]>;
};

export const EMPTY_TYPED_DRAFT: TypedPluginDraft = {
  type: 'slack',
  name: '',
  url: '',
  recipients: '',
  subject: '',
  errors: {},
};

const field = (req: Request, name: string): string => {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
};

/** `field: message` errors (docs/plugins.md) grouped by field, for showing next to each. */
function byField(errors: string[]): Record<string, string[]> {
  const grouped: Record<string, string[]> = {};
  for (const error of errors) {
    const at = error.indexOf(': ');
    const name = at > 0 ? error.slice(0, at) : 'config';
    (grouped[name] ??= []).push(at > 0 ? error.slice(at + 2) : error);
  }
  return grouped;
}

/** The config a draft stands for, in the shape the domain's zod schemas take. */
function rawConfig(draft: TypedPluginDraft): Record<string, unknown> {
  if (draft.type !== 'email') return { url: draft.url };
  const recipients = draft.recipients.split(/[\s,;]+/).filter(Boolean);
  return { recipients, ...(draft.subject ? { subject: draft.subject } : {}) };
}

/**
 * Adding e-mail, Slack and Discord plugins (docs/plugins.md) on the form's plugin page, with
 * the domain's config check (Slack and Discord URLs as webhook URLs are checked), and
 * enabling, disabling and deleting a plugin of any type.
 */
export const pluginTypePages: DashboardPages = (router, ctx) => {
  const back = (form: Form) => `/app/forms/${form.id}/webhooks`;

  router.post('/app/forms/:formId/plugins', async (req, res) => {
    const form = await ownedForm(req, res, req.params.formId);
    if (!form) return;
    const type = field(req, 'type');
    const draft: TypedPluginDraft = {
      type: isDashboardPluginType(type) ? type : 'slack',
      name: field(req, 'name').trim().slice(0, 200),
      url: field(req, 'url').trim(),
      recipients: field(req, 'recipients'),
      subject: field(req, 'subject'),
      errors: {},
    };
    if (!isDashboardPluginType(type)) draft.errors.type = ['choose e-mail, Slack or Discord'];
    const checked = await checkPluginConfig(draft.type, rawConfig(draft), {
      allowList: ctx.webhookAllowList,
      lookup: ctx.lookupHost,
      ownUrls: [ctx.urls.base, ctx.urls.ingest],
    });
    if (!checked.ok || draft.errors.type) {
      const errors = checked.ok ? draft.errors : { ...draft.errors, ...byField(checked.errors) };
      return sendWebhooks(req, res, form, { status: 422, typed: { ...draft, errors } });
    }
    const created = await createTypedPlugin(
      req.em,
      { formId: form.id, type: draft.type, config: checked.config, name: draft.name || undefined },
      ctx.config.budgets.pluginsPerForm,
    ).catch(limitReachedOrThrow);
    if (created instanceof LimitReachedError) {
      const errors = { config: [created.message] };
      return sendWebhooks(req, res, form, { status: 409, typed: { ...draft, errors } });
    }
    if ('recipients' in checked.config) {
      await requestConfirmations(req.em, ctx.accounts.mailing, {
        accountId: form.accountId,
        formName: form.name,
        addresses: checked.config.recipients,
        mailPerHour: ctx.config.accountMailPerHour,
      });
    }
    setFlash(res, ctx.urls.base, 'plugin_created');
    return res.redirect(303, back(form));
  });

  router.post('/app/forms/:formId/plugins/:pluginId/:action', async (req, res, next) => {
    const action = req.params.action;
    if (action !== 'enable' && action !== 'disable' && action !== 'delete') return next();
    const owned = await ownedPlugin(req, res, req.params);
    if (!owned) return;
    const { form, plugin } = owned;
    if (action === 'delete') {
      await deletePlugin(req.em, plugin);
      setFlash(res, ctx.urls.base, 'plugin_deleted');
    } else {
      await setPluginEnabled(req.em, plugin, action === 'enable');
      setFlash(res, ctx.urls.base, plugin.enabled ? 'plugin_enabled' : 'plugin_disabled');
    }
    return res.redirect(303, back(form));
  });
};
