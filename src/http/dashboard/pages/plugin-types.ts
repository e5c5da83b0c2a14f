import type { Form } from '../../../domain/entities';
import { DASHBOARD_PLUGIN_TYPES, PLUGIN_TYPES } from '../../../domain/plugins/registry';
import type { PluginTypeDeclaration } from '../../../domain/plugins/plugin-type';
import type { PluginTypeKey } from '../../../../workflows/plugin-types';
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

/** The config a draft stands for, in the shape the type's declaration checks. */
function rawConfig(type: PluginTypeDeclaration, values: Record<string, string>) {
  const config: Record<string, unknown> = {};
  for (const field of type.fields) {
    const value = values[field.name] ?? '';
    if (field.input === 'list') config[field.name] = value.split(/[\s,;]+/).filter(Boolean);
    else if (value.trim() !== '' || field.required) config[field.name] = value;
  }
  return config;
}

/** The dashboard types a post may name. */
const isDashboardType = (type: string): type is Exclude<PluginTypeKey, 'webhook'> =>
  (DASHBOARD_PLUGIN_TYPES as readonly string[]).includes(type);

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
    const typeKey = bodyField(req, 'type');
    const type = isDashboardType(typeKey) ? PLUGIN_TYPES[typeKey] : null;
    const values = Object.fromEntries(
      (type?.fields ?? []).map((field) => [field.name, bodyField(req, field.name)]),
    );
    const draft: TypedPluginDraft = {
      type: typeKey,
      name: bodyField(req, 'name').trim().slice(0, 200),
      // A secret is not sent back: the person types it again.
      values: Object.fromEntries(
        (type?.fields ?? []).map((f) => [
          f.name,
          f.input.startsWith('secret') ? '' : values[f.name]!,
        ]),
      ),
      errors: {},
    };
    const refuse = async (status: number, errors: TypedPluginDraft['errors']) => {
      const typed = { ...draft, errors };
      return render(await pluginsPageData(req, session, form, { typed }), { status });
    };
    if (!type || !isDashboardType(typeKey)) return refuse(422, { type: ['choose a plugin type'] });
    const created = await createPlugin(req.em, ctx, form, {
      type: typeKey,
      config: rawConfig(type, values),
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
