import type { Request } from 'express';
import { limitReachedOrThrow } from '../../domain/budgets/limit-reached';
import {
  createPlugin,
  PluginConfigRefusedError,
  type PluginToCreate,
} from '../../plugins/manage/create-plugin';
import type { PluginTypeDeclaration } from '../../plugins/plugin-type';
import { pluginTypeOf } from '../../plugins/registry';
import { definePage } from '../kit/routing/define-page';
import { setFlash } from '../kit/session/flash';
import { pluginAuditAction } from './plugin-change-names';
import { pluginsPath } from './plugin-paths';
import { revealOnce } from '../kit/session/reveal-once';
import type { TypedPluginDraft } from '../kit/chrome/template-data';
import { ownedForm } from '../forms/owned';
import { bodyField, PLUGINS_PAGE, pluginsPageData } from './plugin-list-pages';

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

/** What createPlugin takes: the type and its config as the add form gave it. */
function toCreate(type: PluginTypeDeclaration, config: Record<string, unknown>, name: string) {
  const input: PluginToCreate = { type: type.key, config, name: name || undefined };
  return input;
}

/**
 * The type a post names: its `type` field, or `?type=` when it has none (a webhook form of a
 * page loaded before the types shared this address posts no type; the old address's redirect
 * names it, legacy-plugin-paths-pages.ts).
 */
function postedType(req: Request): string {
  const query = req.query.type;
  return bodyField(req, 'type') || (typeof query === 'string' ? query : '');
}

/** The add form as posted: its type, name and values (a secret is not sent back). */
function draftOf(req: Request, type: PluginTypeDeclaration | null): TypedPluginDraft {
  const fields = type?.fields ?? [];
  return {
    type: postedType(req),
    name: bodyField(req, 'name').trim().slice(0, 200),
    // A secret (of any input shape) is not shown again: the person types it again.
    values: Object.fromEntries(
      fields.map((f) => [f.name, f.input.startsWith('secret') ? '' : bodyField(req, f.name)]),
    ),
    errors: {},
  };
}

const refusedCreate = (error: unknown) =>
  error instanceof PluginConfigRefusedError ? error : limitReachedOrThrow(error);

/**
 * `/app/forms/{id}/plugins`: a form's plugins of every type, with each type's add form (the
 * registry's declarations, docs/plugins.md). Adding checks the config as the API does (a URL
 * with checkWebhookUrl's rules); a type that signs shows its new signing secret once, the
 * others say so in a flash. A plugin's own actions are in plugin-actions-pages.ts.
 */
export const pluginPages = [
  definePage({
    need: 'member',
    ...PLUGINS_PAGE,
    method: 'get',
    path: '/app/forms/:formId/plugins',
  }).handle(async ({ req, res, params, session, render }) => {
    const form = await ownedForm(req, res, params.formId);
    if (form) await render(await pluginsPageData(req, session, form));
  }),

  definePage({
    need: 'can_create_forms',
    ...PLUGINS_PAGE,
    method: 'post',
    path: '/app/forms/:formId/plugins',
    // A webhook's creation is recorded as `webhook.created` (plugin-change-names.ts).
    audit: { action: 'plugin.created', target: 'plugin' },
  }).handle(async ({ req, res, params, session, render, audit }, ctx) => {
    const form = await ownedForm(req, res, params.formId);
    if (!form) return;
    const type = pluginTypeOf(postedType(req));
    const draft = draftOf(req, type);
    const refuse = async (status: number, errors: TypedPluginDraft['errors']) => {
      const typed = { ...draft, errors };
      return render(await pluginsPageData(req, session, form, { typed }), { status });
    };
    if (!type) return refuse(422, { type: ['choose a plugin type'] });
    const values = Object.fromEntries(type.fields.map((f) => [f.name, bodyField(req, f.name)]));
    const created = await createPlugin(
      req.em,
      ctx,
      form,
      toCreate(type, rawConfig(type, values), draft.name),
    ).catch(refusedCreate);
    if (created instanceof PluginConfigRefusedError) return refuse(422, byField(created.problems));
    if (created instanceof Error) return refuse(409, { config: [created.message] });
    Object.assign(audit, created.audit, { action: pluginAuditAction(type.key, 'created') });
    const { plugin, signingSecret } = created;
    if (signingSecret) {
      const revealed = { plugin: { name: plugin.name }, secret: signingSecret, rotated: false };
      revealOnce(res, ctx, pluginsPath(form.id), { revealed });
    } else setFlash(res, ctx.urls.base, 'plugin_created');
    return res.redirect(303, pluginsPath(form.id));
  }),
];
