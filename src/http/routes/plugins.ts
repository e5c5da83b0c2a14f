import { Router, type Request } from 'express';
import type { AppContext } from '../../app-context';
import { can } from '../../domain/accounts/principal';
import { findAccountForm } from '../../domain/forms/forms';
import { pluginView } from '../../domain/plugins/plugin-view';
import {
  createWebhookPlugin,
  deletePlugin,
  findFormPlugin,
  listFormPlugins,
  rotateSigningSecret,
} from '../../domain/plugins/plugins';
import { validateWebhookUrl } from '../../domain/plugins/webhook-url';
import { sendEnvelope, setLinkHeader } from '../envelope';
import { HttpError, notFound } from '../http-error';
import { link } from '../links';
import { methodNotAllowed } from '../middleware/errors';
import { jsonBody } from '../middleware/json-body';
import { requireScope } from '../middleware/require-scope';
import { createPluginBody, webhookConfig } from '../schemas/plugins';
import { pageMetaAndLinks, paginationQuery, toPage } from '../pagination';
import { parseOrThrow } from '../validate';

/** `/api/forms/{form_id}/plugins`: list, create webhooks, delete, rotate signing secrets. */
export function pluginsRouter(ctx: AppContext): Router {
  const router = Router();

  const formOf = async (req: Request) => {
    const form = await findAccountForm(req.em, req.principal!.accountId, String(req.params.formId));
    if (!form) throw notFound('form');
    return form;
  };
  const pluginOf = async (req: Request) => {
    const form = await formOf(req);
    const plugin = await findFormPlugin(req.em, form.id, String(req.params.id));
    if (!plugin) throw notFound('plugin');
    return plugin;
  };

  router
    .route('/api/forms/:formId/plugins')
    .get(async (req, res) => {
      const form = await formOf(req);
      const page = toPage(parseOrThrow(paginationQuery, req.query, 'query'));
      const { rows: plugins, total } = await listFormPlugins(req.em, form.id, page);
      const self = `${ctx.urls.base}/api/forms/${form.id}/plugins`;
      const { meta, links } = pageMetaAndLinks(self, new URLSearchParams(), page, total);
      links.push(link('form', `${ctx.urls.base}/api/forms/${form.id}`));
      if (can(req.principal!, 'can_create_forms')) links.push(link('create', self, 'POST'));
      setLinkHeader(res, links);
      const views = plugins.map((p) => pluginView(p, ctx.urls, req.principal!));
      sendEnvelope(res, 'plugins', views, links, { meta });
    })
    .post(requireScope('can_create_forms'), jsonBody, async (req, res) => {
      const form = await formOf(req);
      const body = parseOrThrow(createPluginBody, req.body);
      if (body.plugin_type !== 'webhook') {
        throw new HttpError(
          422,
          'unsupported_plugin',
          `plugin_type "${body.plugin_type}" cannot be created through the API; only webhook can (configure others in the dashboard)`,
        );
      }
      const config = webhookConfig.safeParse(body.config ?? {});
      if (!config.success) {
        throw new HttpError(422, 'invalid_config', 'the webhook config is invalid', [
          'config.url: is required (an https:// URL)',
        ]);
      }
      const checked = await validateWebhookUrl(config.data.url, {
        allowList: ctx.webhookAllowList,
        lookup: ctx.lookupHost,
      });
      if (!checked.ok) {
        throw new HttpError(
          422,
          'invalid_config',
          'the webhook URL is not allowed',
          checked.errors.map((e) => `config.${e}`),
        );
      }
      const plugin = await createWebhookPlugin(req.em, {
        formId: form.id,
        url: checked.url,
        name: body.name,
        enabled: body.enabled,
      });
      const view = pluginView(plugin, ctx.urls, req.principal!, { withSecret: true });
      res.setHeader('Location', view.links[0]!.href);
      sendEnvelope(res, 'plugin', view, view.links, { status: 201 });
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/api/forms/:formId/plugins/:id')
    .get(async (req, res) => {
      const view = pluginView(await pluginOf(req), ctx.urls, req.principal!);
      sendEnvelope(res, 'plugin', view, view.links);
    })
    .delete(requireScope('can_create_forms'), async (req, res) => {
      const plugin = await pluginOf(req);
      await deletePlugin(req.em, plugin);
      const view = pluginView(plugin, ctx.urls, req.principal!);
      const links = [
        link('form', `${ctx.urls.base}/api/forms/${plugin.formId}`),
        link('plugins', `${ctx.urls.base}/api/forms/${plugin.formId}/plugins`),
      ];
      res
        .status(200)
        .json({ ok: true, message: 'plugin removed', plugin: view, payload: view, links });
    })
    .all(methodNotAllowed(['GET', 'DELETE']));

  router
    .route('/api/forms/:formId/plugins/:id/rotate_secret')
    .post(requireScope('can_create_forms'), async (req, res) => {
      const plugin = await pluginOf(req);
      if (plugin.pluginType !== 'webhook')
        throw new HttpError(
          422,
          'unsupported_plugin',
          'only webhook plugins have a signing secret',
        );
      await rotateSigningSecret(req.em, plugin);
      const view = pluginView(plugin, ctx.urls, req.principal!, { withSecret: true });
      sendEnvelope(res, 'plugin', { ...view }, view.links);
    })
    .all(methodNotAllowed(['POST']));

  return router;
}
