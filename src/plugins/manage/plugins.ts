import type { EntityManager } from '@mikro-orm/postgresql';
import { Plugin } from '../../db/entities';
import { countPluginsUnderLock } from '../../db/sql/budget-counts';
import { pluginLimitReached, withinBudget } from '../../domain/budgets/limit-reached';
import type { PluginTypeKey } from '../../../workflows/delivery-kinds';
import type { Conditions } from './conditions';
import { PLUGIN_TYPES } from '../registry';
import { newSigningSecret, type SigningSecretCipher } from '../../domain/secrets/signing-secret';

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

/**
 * Inserts a plugin unless its form already has `maxPlugins` (MAX_PLUGINS_PER_FORM, every
 * type; 0: no limit), counted under a lock on the form so parallel creations cannot pass it
 * together.
 */
function insertWithinBudget(
  em: EntityManager,
  maxPlugins: number,
  fields: Pick<Plugin, 'formId' | 'pluginType' | 'name' | 'enabled' | 'config' | 'signingSecret'> &
    PluginRouting,
): Promise<Plugin> {
  return em.transactional(async (tx) => {
    const count = await countPluginsUnderLock(tx, fields.formId);
    if (!withinBudget(count, maxPlugins)) throw pluginLimitReached(count, maxPlugins);
    const plugin = tx.create(Plugin, { ...fields, deletedAt: null });
    await tx.flush();
    return plugin;
  });
}

/** Which submissions a plugin gets and what of them (conditions.ts, include-fields.ts). */
export type PluginRouting = { conditions: Conditions | null; includeFields: string[] | null };

/**
 * Creates a plugin (docs/plugins.md) from a config its declaration accepted, secrets already
 * sealed, and the signing secret (sealed) of a type that signs.
 */
export async function createTypedPlugin(
  em: EntityManager,
  input: {
    formId: string;
    type: PluginTypeKey;
    config: Record<string, unknown>;
    name?: string;
    enabled?: boolean;
    signingSecret?: string | null;
  } & Partial<PluginRouting>,
  maxPlugins: number,
): Promise<Plugin> {
  return insertWithinBudget(em, maxPlugins, {
    formId: input.formId,
    pluginType: input.type,
    name: input.name || PLUGIN_TYPES[input.type].defaultName(input.config),
    enabled: input.enabled ?? true,
    config: { ...input.config },
    signingSecret: input.signingSecret ?? null,
    conditions: input.conditions ?? null,
    includeFields: input.includeFields ?? null,
  });
}

/** Soft delete: delivery records keep their plugin, and pending retries see it is gone. */
export async function softDeletePlugin(em: EntityManager, plugin: Plugin): Promise<void> {
  plugin.deletedAt = new Date();
  plugin.enabled = false;
  await em.flush();
}

/** Why a plugin that the account (not its health) disabled is disabled. */
export const DISABLED_BY_ACCOUNT = 'disabled by the account';

/**
 * Turns a plugin on or off (the API's PATCH and the dashboard's button). A disabled plugin
 * gets no deliveries: workflows plan only enabled plugins, and each attempt checks again, so
 * pending retries stop too. Enabling starts its health afresh (docs/endpoint-health.md).
 * Whether anything changed: enabling a healthy enabled plugin, or disabling a disabled one,
 * writes nothing (and is not an event for the audit log).
 */
export async function setPluginEnabled(
  em: EntityManager,
  plugin: Plugin,
  enabled: boolean,
): Promise<boolean> {
  // Written as given, not as a diff against the loaded row: deliveries change the counters
  // concurrently, and enabling must reset them whatever they are by now.
  const now = new Date();
  const change = enabled
    ? {
        enabled,
        consecutiveFailures: 0,
        failingSince: null,
        disabledReason: null,
        disabledAt: null,
      }
    : { enabled, disabledReason: DISABLED_BY_ACCOUNT, disabledAt: now };
  const updated = await em.nativeUpdate(
    Plugin,
    // Disabling a disabled plugin keeps its reason (e.g. sustained failure); enabling touches
    // only a plugin that is off or has health to reset.
    enabled
      ? {
          id: plugin.id,
          $or: [
            { enabled: false },
            { consecutiveFailures: { $ne: 0 } },
            { failingSince: { $ne: null } },
            { disabledReason: { $ne: null } },
            { disabledAt: { $ne: null } },
          ],
        }
      : { id: plugin.id, enabled: true },
    { ...change, updatedAt: now },
  );
  await em.refresh(plugin);
  return updated > 0;
}

/** The old secret stops working at once: deliveries read the secret at attempt time. */
export async function rotateSigningSecret(
  em: EntityManager,
  cipher: SigningSecretCipher,
  plugin: Plugin,
): Promise<string> {
  const signingSecret = newSigningSecret();
  plugin.signingSecret = cipher.seal(signingSecret);
  await em.flush();
  return signingSecret;
}

/**
 * Seals the secrets stored in plain text before sealing existed; run at start-up after the
 * migrations, since a SQL migration cannot know APP_SECRET. Safe to run from several processes
 * at once: a row is only replaced while it still holds the plain value read.
 */
export async function sealPlainSigningSecrets(
  em: EntityManager,
  cipher: SigningSecretCipher,
): Promise<number> {
  const plain = await em.find(
    Plugin,
    { signingSecret: { $like: 'whsec\\_%' } },
    { fields: ['id', 'signingSecret'] },
  );
  let sealed = 0;
  for (const row of plain) {
    const secret = row.signingSecret!;
    sealed += await em.nativeUpdate(
      Plugin,
      { id: row.id, signingSecret: secret },
      { signingSecret: cipher.seal(secret) },
    );
  }
  return sealed;
}
