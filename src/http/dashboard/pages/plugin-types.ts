import type { Form } from '../../../domain/entities';
import { checkPluginConfig, isDashboardPluginType } from '../../../domain/plugins/plugin-configs';
import { urlCheckOptions } from '../../../domain/plugins/url-policy';
import { LimitReachedError, limitReachedOrThrow } from '../../../domain/budgets/limit-reached';
import { createTypedPlugin, deletePlugin, setPluginEnabled } from '../../../domain/plugins/plugins';
import { requestConfirmations } from '../../../domain/recipients/confirmations';
import { definePage } from '../define-page';
import { setFlash } from '../flash';
import type { TypedPluginDraft } from '../templates';
import { ownedForm, ownedPlugin } from './owned';
import { bodyField, PLUGINS_PAGE, pluginsPageData } from './plugin-list';

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

const back = (form: Form) => `/app/forms/${form.id}/webhooks`;

/** Enabling, disabling or deleting a plugin of any type; back to the plugins page. */
function pluginAction(action: 'enable' | 'disable' | 'delete') {
  return definePage({
    need: 'can_create_forms',
    method: 'post',
    path: `/app/forms/:formId/plugins/:pluginId/${action}`,
    audit: { action: `plugin.${action}d`, target: 'plugin' },
    access: 'session',
  }).handle(async ({ req, res, params }, ctx) => {
    const owned = await ownedPlugin(req, res, params);
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
}

/**
 * Adding e-mail, Slack and Discord plugins (docs/plugins.md) on the form's plugin page, with
 * the domain's config check (Slack and Discord URLs as webhook URLs are checked), and
 * enabling, disabling and deleting a plugin of any type.
 */
export const pluginTypePages = [
  definePage({
    need: 'can_create_forms',
    ...PLUGINS_PAGE,
    method: 'post',
    path: '/app/forms/:formId/plugins',
    audit: { action: 'plugin.created', target: 'plugin' },
  }).handle(async ({ req, res, params, session, render, audit }, ctx) => {
    const form = await ownedForm(req, res, params.formId);
    if (!form) return;
    const type = bodyField(req, 'type');
    const draft: TypedPluginDraft = {
      type: isDashboardPluginType(type) ? type : 'slack',
      name: bodyField(req, 'name').trim().slice(0, 200),
      url: bodyField(req, 'url').trim(),
      recipients: bodyField(req, 'recipients'),
      subject: bodyField(req, 'subject'),
      errors: {},
    };
    if (!isDashboardPluginType(type)) draft.errors.type = ['choose e-mail, Slack or Discord'];
    const checked = await checkPluginConfig(draft.type, rawConfig(draft), urlCheckOptions(ctx));
    if (!checked.ok || draft.errors.type) {
      const errors = checked.ok ? draft.errors : { ...draft.errors, ...byField(checked.errors) };
      const typed = { ...draft, errors };
      return render(await pluginsPageData(req, session, form, { typed }), { status: 422 });
    }
    const created = await createTypedPlugin(
      req.em,
      {
        formId: form.id,
        type: draft.type,
        config: checked.config,
        name: draft.name || undefined,
      },
      ctx.config.budgets.pluginsPerForm,
    ).catch(limitReachedOrThrow);
    if (created instanceof LimitReachedError) {
      const typed = { ...draft, errors: { config: [created.message] } };
      return render(await pluginsPageData(req, session, form, { typed }), { status: 409 });
    }
    if ('recipients' in checked.config) {
      await requestConfirmations(req.em, ctx.accounts.mailing, {
        accountId: form.accountId,
        formName: form.name,
        addresses: checked.config.recipients,
        mailPerHour: ctx.config.accountMailPerHour,
      });
    }
    audit.targetId = created.id;
    audit.summary = `${draft.type} plugin on form ${form.id}`;
    setFlash(res, ctx.urls.base, 'plugin_created');
    return res.redirect(303, back(form));
  }),
  pluginAction('enable'),
  pluginAction('disable'),
  pluginAction('delete'),
];
