import type { PublicUrls } from '../../app-context';
import type { Plugin } from '../../db/entities';
import { link } from '../../http/links';
import { can, type Principal } from '../accounts/principal';

/** The Plugin resource; the signing secret only when just issued (create and rotate). */
export function pluginView(
  plugin: Plugin,
  urls: PublicUrls,
  principal: Principal,
  options: { withSecret?: boolean } = {},
) {
  const self = `${urls.base}/api/forms/${plugin.formId}/plugins/${plugin.id}`;
  const links = [link('self', self), link('form', `${urls.base}/api/forms/${plugin.formId}`)];
  links.push(link('deliveries', `${self}/deliveries`));
  if (can(principal, 'can_create_forms')) {
    links.push(link('delete', self, 'DELETE'));
    if (plugin.pluginType === 'webhook')
      links.push(link('rotate_secret', `${self}/rotate_secret`, 'POST'));
  }
  return {
    id: plugin.id,
    key: plugin.pluginType,
    plugin_type: plugin.pluginType,
    name: plugin.name,
    enabled: plugin.enabled,
    config: plugin.config,
    ...(options.withSecret && plugin.signingSecret ? { signing_secret: plugin.signingSecret } : {}),
    created_at: plugin.createdAt.toISOString(),
    updated_at: plugin.updatedAt.toISOString(),
    links,
  };
}
