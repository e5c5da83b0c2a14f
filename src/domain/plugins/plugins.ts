import type { EntityManager } from '@mikro-orm/postgresql';
import { Plugin } from '../../db/entities';
import { newSigningSecret } from './signing-secret';

export async function listFormPlugins(em: EntityManager, formId: string): Promise<Plugin[]> {
  return em.find(Plugin, { formId, deletedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

export async function findFormPlugin(
  em: EntityManager,
  formId: string,
  id: string,
): Promise<Plugin | null> {
  if (!/^\d{1,18}$/.test(id)) return null;
  return em.findOne(Plugin, { id, formId, deletedAt: null });
}

export async function createWebhookPlugin(
  em: EntityManager,
  input: { formId: string; url: string; name?: string; enabled?: boolean },
): Promise<Plugin> {
  const plugin = em.create(Plugin, {
    formId: input.formId,
    pluginType: 'webhook',
    name: input.name ?? `Webhook to ${new URL(input.url).host}`,
    enabled: input.enabled ?? true,
    config: { url: input.url },
    signingSecret: newSigningSecret(),
    deletedAt: null,
  });
  await em.flush();
  return plugin;
}

/** Soft delete: delivery records keep their plugin, and pending retries see it is gone. */
export async function deletePlugin(em: EntityManager, plugin: Plugin): Promise<void> {
  plugin.deletedAt = new Date();
  plugin.enabled = false;
  await em.flush();
}

/** The old secret stops working at once: deliveries read the secret at attempt time. */
export async function rotateSigningSecret(em: EntityManager, plugin: Plugin): Promise<string> {
  plugin.signingSecret = newSigningSecret();
  await em.flush();
  return plugin.signingSecret;
}
