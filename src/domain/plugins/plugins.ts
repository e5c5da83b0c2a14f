import type { EntityManager } from '@mikro-orm/postgresql';
import { Plugin } from '../../db/entities';
import { newSigningSecret } from './signing-secret';

/** One page of a form's plugins, oldest first, and how many there are in all. */
export async function listFormPlugins(
  em: EntityManager,
  formId: string,
  page: { page: number; perPage: number },
): Promise<{ rows: Plugin[]; total: number }> {
  const [rows, total] = await em.findAndCount(
    Plugin,
    { formId, deletedAt: null },
    {
      orderBy: { createdAt: 'asc', id: 'asc' },
      limit: page.perPage,
      offset: (page.page - 1) * page.perPage,
    },
  );
  return { rows, total };
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
