import type { Response } from 'express';
import type { Form, Plugin } from '../../domain/entities';
import { deletePlugin } from '../../plugins/manage/delete-plugin';
import { rotateSigningSecret, setPluginEnabled } from '../../plugins/manage/plugins';
import { pluginTypeOf } from '../../plugins/registry';
import type { AppContext } from '../../runtime/app-context';
import { definePage } from '../kit/routing/define-page';
import type { PageAudit } from '../kit/routing/page-audit';
import { setFlash } from '../kit/session/flash';
import { pluginAuditAction, pluginFlash, type PluginChange } from './plugin-change-names';
import { pluginsPath } from './plugin-paths';
import { revealOnce } from '../kit/session/reveal-once';
import { ownedPlugin, sendNotFound } from '../forms/owned';

type Owned = { form: Form; plugin: Plugin };
type ActionInput = { res: Response; owned: Owned; audit: PageAudit; ctx: AppContext };

/**
 * One action on a plugin of any type (`/app/forms/{id}/plugins/{pluginId}/<action>`): it
 * redirects back to the plugins page. The declared action is the non-webhook name; `run`
 * names the entry for the plugin's type (plugin-change-names.ts) and says when nothing
 * changed (`audit.skip`), or answers itself (a 404) and returns false.
 */
function pluginAction(
  action: 'enable' | 'disable' | 'delete' | 'rotate',
  change: PluginChange,
  run: (input: ActionInput) => Promise<boolean | void>,
) {
  return definePage({
    need: 'can_create_forms',
    method: 'post',
    path: `/app/forms/:formId/plugins/:pluginId/${action}`,
    audit: { action: `plugin.${change}`, target: 'plugin' },
    access: 'session',
  }).handle(async ({ req, res, params, audit }, ctx) => {
    const owned = await ownedPlugin(req, res, params);
    if (!owned) return;
    audit.action = pluginAuditAction(owned.plugin.pluginType, change);
    if ((await run({ res, owned, audit, ctx })) === false) return;
    res.redirect(303, pluginsPath(owned.form.id));
  });
}

const toggle = (enabled: boolean) =>
  pluginAction(enabled ? 'enable' : 'disable', enabled ? 'enabled' : 'disabled', async (input) => {
    const { res, owned, audit, ctx } = input;
    audit.skip = !(await setPluginEnabled(res.req.em, owned.plugin, enabled));
    const flash = pluginFlash(owned.plugin.pluginType, enabled ? 'enabled' : 'disabled');
    setFlash(res, ctx.urls.base, flash);
  });

/**
 * Enabling, disabling and deleting a plugin of any type, and rotating the signing secret of a
 * type that signs (the registry's `signs`; the new secret is shown once, the old one stops).
 */
export const pluginActionPages = [
  toggle(true),
  toggle(false),
  pluginAction('delete', 'deleted', async ({ res, owned, audit, ctx }) => {
    const { audit: deleted } = await deletePlugin(res.req.em, owned.plugin);
    Object.assign(audit, deleted);
    setFlash(res, ctx.urls.base, pluginFlash(owned.plugin.pluginType, 'deleted'));
  }),
  pluginAction('rotate', 'secret_rotated', async ({ res, owned, ctx }) => {
    const { form, plugin } = owned;
    if (!pluginTypeOf(plugin.pluginType)?.signs) {
      // No secret to rotate: as if the action did not exist for it.
      await sendNotFound(res.req, res, 'plugin with a signing secret');
      return false;
    }
    const secret = await rotateSigningSecret(res.req.em, ctx.signingSecrets, plugin);
    revealOnce(res, ctx, pluginsPath(form.id), {
      revealed: { plugin: { name: plugin.name }, secret, rotated: true },
    });
  }),
];
