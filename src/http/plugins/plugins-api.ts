import type { Request } from 'express';
import { can } from '../../domain/accounts/principal';
import { findAccountForm } from '../../domain/forms/forms';
import { createPlugin, PluginConfigRefusedError } from '../../plugins/manage/create-plugin';
import { deletePlugin } from '../../plugins/manage/delete-plugin';
import { findFormPlugin, listFormPlugins, rotateSigningSecret } from '../../plugins/manage/plugins';
import { isConfigProblem, updatePlugin } from '../../plugins/manage/update-plugin';
import { pluginRecipientLookup } from '../../plugins/manage/plugin-recipients';
import { pluginTypeOf } from '../../plugins/registry';
import { envelope, listAnswer } from '../kit/answers/envelope';
import { HttpError, notFound } from '../kit/errors/http-error';
import { link } from '../kit/answers/links';
import { pageMetaAndLinks, paginationQuery, toPage } from '../kit/answers/pagination';
import { defineRoute } from '../kit/routing/define-route';
import { LIST_HEADERS } from '../kit/answers/headers';
import { createPluginBody, updatePluginBody, webhookConfig } from './plugins-schemas';
import { pluginDeletedSchema, pluginEnvelope, pluginListEnvelope, pluginView } from './plugin-view';

async function formOf(req: Request, formId: string) {
  const form = await findAccountForm(req.em, req.principal!.accountId, formId);
  if (!form) throw notFound('form');
  return form;
}

/** The plugin a path names, of a form of the caller's account; 404 otherwise. */
export async function pluginOf(req: Request, params: { form_id: string; id: string }) {
  const form = await formOf(req, params.form_id);
  const plugin = await findFormPlugin(req.em, form.id, params.id);
  if (!plugin) throw notFound('plugin');
  return plugin;
}

/** A refused config or setting as 422 `invalid_config`, config problems named `config.…`. */
const refused = (message: string) => (error: unknown) => {
  if (!(error instanceof PluginConfigRefusedError)) throw error;
  const problems = error.problems.map((e) => (isConfigProblem(e) ? `config.${e}` : e));
  throw new HttpError('invalid_config', message, problems);
};

/** `/api/forms/{form_id}/plugins`: list, create webhooks, enable / disable, delete, rotate signing secrets. */
export const pluginRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/forms/{form_id}/plugins',
    operationId: 'listPlugins',
    tag: 'Plugins',
    summary: "List a form's plugins",
    description:
      'Every type (docs/plugins.md), oldest first, one page at a time. ' +
      'Signing secrets are never included.',
    access: 'any',
    query: paginationQuery,
    responses: {
      200: { description: 'the plugins', body: pluginListEnvelope, headers: LIST_HEADERS },
    },
    errors: ['not_found'],
  }).handle(async ({ req, params, query, principal }, ctx) => {
    const form = await formOf(req, params.form_id);
    const page = toPage(query);
    const { rows: plugins, total } = await listFormPlugins(req.em, form.id, page);
    const self = `${ctx.urls.base}/api/forms/${form.id}/plugins`;
    const list = pageMetaAndLinks(self, new URLSearchParams(), page, total);
    list.links.push(link('form', `${ctx.urls.base}/api/forms/${form.id}`));
    if (can(principal, 'can_create_forms')) list.links.push(link('create', self, 'POST'));
    const recipients = await pluginRecipientLookup(req.em, principal.accountId, plugins);
    const views = plugins.map((p) =>
      pluginView(p, ctx.urls, principal, { recipients: recipients(p) }),
    );
    return listAnswer('plugins', views, list);
  }),
  defineRoute({
    method: 'post',
    path: '/api/forms/{form_id}/plugins',
    operationId: 'createPlugin',
    tag: 'Plugins',
    summary: 'Create a webhook',
    description:
      'Only `plugin_type: "webhook"` is accepted. `config.url` must be https:// and resolve ' +
      'to public addresses only, and not point at this service itself (a loop). The answer carries the `signing_secret`, shown this once. ' +
      '`config.headers`, `conditions` and `include_fields` are optional (docs/plugins.md). ' +
      'A form has at most `MAX_PLUGINS_PER_FORM` plugins of all types (25 by default): past it, 409 `limit_reached`.',
    audit: { action: 'webhook.created', target: 'plugin' },
    access: 'can_create_forms',
    body: { schema: createPluginBody, mediaTypes: ['application/json'], required: true },
    responses: {
      201: {
        description: 'created, with its signing_secret',
        body: pluginEnvelope,
        headers: { Location: 'the new plugin' },
      },
    },
    errors: ['not_found', 'invalid_config', 'unsupported_plugin', 'limit_reached'],
  }).handle(async ({ req, params, body, principal, audit }, ctx) => {
    const form = await formOf(req, params.form_id);
    const type = pluginTypeOf(body.plugin_type);
    if (type?.createdThrough !== 'api') {
      throw new HttpError(
        'unsupported_plugin',
        `plugin_type "${body.plugin_type}" cannot be created through the API; only webhook can (configure others in the dashboard)`,
      );
    }
    const config = webhookConfig.safeParse(body.config ?? {});
    if (!config.success) {
      throw new HttpError('invalid_config', 'the webhook config is invalid', [
        'config.url: is required (an https:// URL)',
      ]);
    }
    const created = await createPlugin(req.em, ctx, form, {
      type: type.key,
      config: config.data,
      conditions: body.conditions,
      includeFields: body.include_fields,
      name: body.name,
      enabled: body.enabled,
    }).catch(refused('the webhook is not allowed'));
    const { plugin, signingSecret } = created;
    const view = pluginView(plugin, ctx.urls, principal, {
      signingSecret: signingSecret ?? undefined,
    });
    Object.assign(audit, created.audit);
    return {
      status: 201,
      body: envelope('plugin', view, view.links),
      headers: { Location: view.links[0]!.href },
    };
  }),
  defineRoute({
    method: 'get',
    path: '/api/forms/{form_id}/plugins/{id}',
    operationId: 'getPlugin',
    tag: 'Plugins',
    summary: 'Read a plugin',
    access: 'any',
    responses: { 200: { description: 'the plugin', body: pluginEnvelope } },
    errors: ['not_found'],
  }).handle(async ({ req, params, principal }, ctx) => {
    const plugin = await pluginOf(req, params);
    const recipients = await pluginRecipientLookup(req.em, principal.accountId, [plugin]);
    const view = pluginView(plugin, ctx.urls, principal, { recipients: recipients(plugin) });
    return { status: 200, body: envelope('plugin', view, view.links) };
  }),
  defineRoute({
    method: 'patch',
    path: '/api/forms/{form_id}/plugins/{id}',
    operationId: 'updatePlugin',
    tag: 'Plugins',
    summary: 'Change a plugin: enabled, conditions, fields, webhook headers',
    description:
      '`{"enabled": false}` stops its deliveries (later submissions record a `skipped` ' +
      'delivery); `{"enabled": true}` turns it back on and resets its health: ' +
      '`consecutive_failures`, `disabled_reason`. See the endpoint health guide. ' +
      '`conditions` and `include_fields` (any type; null clears) and, for a webhook, ' +
      '`config.headers` (replaces the set; a header given without `value` keeps its stored ' +
      'value) change only what is given; every problem answers 422 `invalid_config`.',
    audit: { action: 'plugin.updated', target: 'plugin' },
    access: 'can_create_forms',
    body: { schema: updatePluginBody, mediaTypes: ['application/json'], required: true },
    responses: { 200: { description: 'the plugin', body: pluginEnvelope } },
    errors: ['not_found', 'invalid_config'],
  }).handle(async ({ req, params, body, principal, audit }, ctx) => {
    const plugin = await pluginOf(req, params);
    const { audit: changed } = await updatePlugin(req.em, ctx, plugin, {
      enabled: body.enabled,
      conditions: body.conditions,
      includeFields: body.include_fields,
      headers: body.config?.headers,
    }).catch(refused('the plugin settings are invalid'));
    Object.assign(audit, changed);
    const recipients = await pluginRecipientLookup(req.em, principal.accountId, [plugin]);
    const view = pluginView(plugin, ctx.urls, principal, { recipients: recipients(plugin) });
    return { status: 200, body: envelope('plugin', view, view.links) };
  }),
  defineRoute({
    method: 'delete',
    path: '/api/forms/{form_id}/plugins/{id}',
    operationId: 'deletePlugin',
    tag: 'Plugins',
    summary: 'Delete a plugin',
    description: 'Its delivery records are kept.',
    audit: { action: 'plugin.deleted', target: 'plugin' },
    access: 'can_create_forms',
    responses: { 200: { description: 'plugin removed', body: pluginDeletedSchema } },
    errors: ['not_found'],
  }).handle(async ({ req, params, principal, audit }, ctx) => {
    const plugin = await pluginOf(req, params);
    Object.assign(audit, (await deletePlugin(req.em, plugin)).audit);
    const view = pluginView(plugin, ctx.urls, principal);
    const links = [
      link('form', `${ctx.urls.base}/api/forms/${plugin.formId}`),
      link('plugins', `${ctx.urls.base}/api/forms/${plugin.formId}/plugins`),
    ];
    return {
      status: 200,
      body: { ok: true, message: 'plugin removed', plugin: view, payload: view, links },
    };
  }),
  defineRoute({
    method: 'post',
    path: '/api/forms/{form_id}/plugins/{id}/rotate_secret',
    operationId: 'rotatePluginSecret',
    tag: 'Plugins',
    summary: "Rotate a webhook's signing secret",
    description:
      'The old secret stops at once: every later attempt, retries of older submissions ' +
      'included, signs with the new one, returned here once. Only webhooks have a secret: ' +
      'for a plugin of any other type the answer is 422 `unsupported_plugin`.',
    audit: { action: 'webhook.secret_rotated', target: 'plugin' },
    access: 'can_create_forms',
    responses: {
      200: { description: 'the plugin with its new signing_secret', body: pluginEnvelope },
    },
    errors: ['not_found', 'unsupported_plugin'],
  }).handle(async ({ req, params, principal }, ctx) => {
    const plugin = await pluginOf(req, params);
    if (!pluginTypeOf(plugin.pluginType)?.signs)
      throw new HttpError('unsupported_plugin', 'only webhook plugins have a signing secret');
    const signingSecret = await rotateSigningSecret(req.em, ctx.signingSecrets, plugin);
    const view = pluginView(plugin, ctx.urls, principal, { signingSecret });
    return { status: 200, body: envelope('plugin', view, view.links) };
  }),
];
