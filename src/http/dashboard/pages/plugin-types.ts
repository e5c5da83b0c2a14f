import type { Form } from '../../../domain/entities';
import { checkPluginConfig, isDashboardPluginType } from '../../../domain/plugins/plugin-configs';
import { urlCheckOptions } from '../../../domain/plugins/url-policy';
import { limitReachedOrThrow } from '../../../domain/budgets/limit-reached';
import { createPlugin, PluginConfigRefusedError } from '../../../domain/plugins/create-plugin';
import { deletePlugin } from '../../../domain/plugins/delete-plugin';
import { setPluginEnabled } from '../../../domain/plugins/plugins';
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
  }).handle(async ({ req, res, params, audit }, ctx) => {
    const owned = await ownedPlugin(req, res, params);
    if (!owned) return;
    const { form, plugin } = owned;
    if (action === 'delete') {
      Object.assign(audit, (await deletePlugin(req.em, plugin)).audit);
      setFlash(res, ctx.urls.base, 'plugin_deleted');
    } else {
      audit.skip = !(await setPluginEnabled(req.em, plugin, action === 'enable'));
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
    const refuse = async (status: number, errors: TypedPluginDraft['errors']) => {
      const typed = { ...draft, errors };
      return render(await pluginsPageData(req, session, form, { typed }), { status });
    };
    if (!isDashboardPluginType(type)) {
      // The config's problems are shown along with the type's, checked as for Slack.
      const checked = await checkPluginConfig(draft.type, rawConfig(draft), urlCheckOptions(ctx));
      const typeErrors = { type: ['choose e-mail, Slack or Discord'] };
      return refuse(422, checked.ok ? typeErrors : { ...typeErrors, ...byField(checked.errors) });
    }
    const created = await createPlugin(req.em, ctx, form, {
      type: draft.type,
      config: rawConfig(draft),
      name: draft.name || undefined,
    }).catch((error: unknown) =>
      error instanceof PluginConfigRefusedError ? error : limitReachedOrThrow(error),
    );
    if (created instanceof PluginConfigRefusedError) return refuse(422, byField(created.problems));
    if (created instanceof Error) return refuse(409, { config: [created.message] });
    Object.assign(audit, created.audit);
    setFlash(res, ctx.urls.base, 'plugin_created');
    return res.redirect(303, back(form));
  }),
  pluginAction('enable'),
  pluginAction('disable'),
  pluginAction('delete'),
];
