import type { Request } from 'express';
import type { Form, Plugin } from '../../domain/entities';
import { checkConditions, CONDITION_OPS, type Conditions } from '../../plugins/manage/conditions';
import { PluginConfigRefusedError } from '../../plugins/manage/create-plugin';
import { dryRun, sampleSubmissions } from '../../plugins/manage/dry-run';
import { updatePlugin } from '../../plugins/manage/update-plugin';
import { pluginConfigAccess } from '../../plugins/manage/plugin-config-visibility';
import { definePage, type Render } from '../kit/routing/define-page';
import { setFlash } from '../kit/session/flash';
import { formRef, pluginRow, type PluginViewer } from '../forms/page-views';
import {
  readSettingsInput,
  settingsOf,
  storedSettingsInput,
  withSpareRows,
  type PluginSettingsInput,
} from './plugin-settings-fields';
import { ownedPlugin } from '../forms/owned';
import { pluginTypeOf } from '../../plugins/registry';

/** Whether the plugin's type sends headers of its own (a webhook's). */
const hasHeaders = (plugin: Plugin) => Boolean(pluginTypeOf(plugin.pluginType)?.changeHeaders);

const PAGE = {
  access: 'session',
  path: '/app/forms/:formId/plugins/:pluginId/settings',
  template: 'plugin-settings',
  title: (data: { plugin: { name: string } }) => `Settings · ${data.plugin.name}`,
} as const;

const seesSecrets = (viewer: PluginViewer) =>
  pluginConfigAccess((scope) => viewer.scopes.has(scope)) === 'full';

const settingsPath = (form: Form, plugin: Plugin) =>
  `/app/forms/${form.id}/plugins/${plugin.id}/settings`;

type Shown = {
  input: PluginSettingsInput;
  /** The conditions the dry run judges: as typed, or as stored. */
  conditions: Conditions | null;
  dryRunOf: 'typed' | 'saved';
  errors?: string[];
  status?: number;
};

async function show(
  req: Request,
  viewer: PluginViewer,
  render: Render<'plugin-settings'>,
  { form, plugin }: { form: Form; plugin: Plugin },
  shown: Shown,
) {
  const sample = await sampleSubmissions(req.em, form, shown.conditions);
  const input = withSpareRows(shown.input);
  const fieldNames = [...new Set([...sample.fieldNames, ...input.include])];
  await render(
    {
      form: formRef(form),
      plugin: pluginRow(plugin, viewer),
      action: settingsPath(form, plugin),
      // Header names and values are for those who manage plugins only (docs/teams.md).
      hasHeaders: hasHeaders(plugin) && seesSecrets(viewer),
      ops: CONDITION_OPS,
      fieldNames,
      input,
      errors: shown.errors ?? [],
      dryRun: shown.errors?.length ? null : dryRun(sample, shown.conditions),
      dryRunOf: shown.dryRunOf,
    },
    { status: shown.status },
  );
}

/**
 * `/app/forms/{id}/plugins/{pluginId}/settings`: a plugin's conditions, chosen fields and (a
 * webhook's) headers (docs/plugins.md), with a dry run: how many of the form's last 100
 * non-spam submissions the conditions would send, as typed ("Dry run", nothing saved) or as
 * saved, read only for the fields they name and kept a minute (dry-run.ts). Members see it; changing it takes `can_create_forms`.
 */
export const pluginSettingsPages = [
  definePage({ need: 'member', ...PAGE, method: 'get' }).handle(
    async ({ req, res, params, session, render }) => {
      const owned = await ownedPlugin(req, res, params);
      if (!owned) return;
      const input = storedSettingsInput(owned.plugin, seesSecrets(session));
      const conditions = (owned.plugin.conditions as Conditions | null) ?? null;
      await show(req, session, render, owned, { input, conditions, dryRunOf: 'saved' });
    },
  ),

  definePage({
    need: 'can_create_forms',
    ...PAGE,
    method: 'post',
    audit: { action: 'plugin.settings_updated', target: 'plugin' },
  }).handle(async ({ req, res, params, session, render, audit }, ctx) => {
    const owned = await ownedPlugin(req, res, params);
    if (!owned) return;
    const input = readSettingsInput(req);
    const settings = settingsOf(input, hasHeaders(owned.plugin));
    const typed = checkConditions(settings.conditions);
    const refuse = (errors: string[]) =>
      show(req, session, render, owned, {
        input,
        conditions: null,
        dryRunOf: 'typed',
        errors,
        status: 422,
      });
    if (req.body?.intent === 'dry_run') {
      audit.skip = true;
      if (!typed.ok) return refuse(typed.errors);
      return show(req, session, render, owned, {
        input,
        conditions: typed.conditions,
        dryRunOf: 'typed',
      });
    }
    try {
      Object.assign(audit, (await updatePlugin(req.em, ctx, owned.plugin, settings)).audit);
    } catch (error) {
      if (!(error instanceof PluginConfigRefusedError)) throw error;
      audit.skip = true;
      return refuse(error.problems);
    }
    setFlash(res, ctx.urls.base, 'plugin_settings_saved');
    res.redirect(303, settingsPath(owned.form, owned.plugin));
  }),
];
