import { z } from 'zod';
import { PLUGIN_TYPE_KEYS } from '../../../workflows/delivery-kinds';
import { PLUGIN_TYPE_LIST, pluginTypeOf } from '../../plugins/registry';
import type { Plugin } from '../../domain/entities';
import { can, type Principal } from '../../domain/accounts/principal';
import {
  pluginConfigAccess,
  visiblePluginConfig,
} from '../../plugins/manage/plugin-config-visibility';
import { DISABLED_BY_ACCOUNT } from '../../plugins/manage/plugins';
import { CONDITION_OPS, type Conditions } from '../../plugins/manage/conditions';
import type { RecipientStatus } from '../../domain/recipients/recipient-states';
import { envelopeSchema, listEnvelopeSchema } from '../kit/answers/envelope';
import { link, linksSchema } from '../kit/answers/links';
import type { PublicUrls } from '../../runtime/public-urls';
import { dateTime, idString } from '../kit/answers/fields';

const quoted = (keys: readonly string[]) => keys.map((key) => `\`${key}\``).join(', ');
const TYPE_KEYS = quoted(PLUGIN_TYPE_KEYS);
const API_TYPE_KEYS = quoted(
  PLUGIN_TYPE_LIST.filter((type) => type.createdThrough === 'api').map((type) => type.key),
);
const DASHBOARD_TYPE_KEYS = quoted(
  PLUGIN_TYPE_LIST.filter((type) => type.createdThrough === 'dashboard').map((type) => type.key),
);

export const pluginSchema = z
  .object({
    id: idString('plugin id'),
    key: z.string().describe(`plugin type key: ${TYPE_KEYS}`),
    plugin_type: z
      .string()
      .describe(
        `${API_TYPE_KEYS} (created through the API), or ${DASHBOARD_TYPE_KEYS} (configured in the dashboard; docs/plugins.md)`,
      ),
    name: z.string(),
    enabled: z.boolean(),
    disabled_reason: z
      .string()
      .nullable()
      .describe(
        'why it is disabled: by the account, or after sustained failure; null when enabled',
      ),
    consecutive_failures: z
      .number()
      .int()
      .min(0)
      .describe('deliveries in a row whose every attempt failed; a success resets it'),
    last_success_at: dateTime('the last successful delivery').nullable(),
    config: z
      .record(z.string(), z.unknown())
      .describe(
        'webhook, slack, discord: `{url}` (scheme and host only for keys that cannot manage ' +
          'plugins); a webhook may have `headers`: `[{name, value}]`, values masked, left out ' +
          'for keys that cannot manage plugins; email: `{recipients, subject}` (the subject ' +
          'template); the other types as docs/plugins.md lists them, tokens and keys always ' +
          'masked (`••••••••`)',
      ),
    conditions: z
      .object({
        match: z.enum(['all', 'any']),
        rules: z.array(
          z
            .object({
              field: z.string(),
              op: z.enum(CONDITION_OPS),
              value: z.union([z.string(), z.array(z.string())]).optional(),
            })
            .meta({ id: 'PluginConditionRule' }),
        ),
      })
      .nullable()
      .describe('which submissions it is sent (docs/plugins.md, "Conditions"); null: all'),
    include_fields: z
      .array(z.string())
      .nullable()
      .describe('the submitted fields it is sent (docs/plugins.md, "Choosing fields"); null: all'),
    recipients: z
      .array(
        z
          .object({
            address: z.string().meta({ format: 'email' }),
            confirmed: z.boolean(),
          })
          .meta({ id: 'PluginRecipient' }),
      )
      .optional()
      .describe(
        'email only: `config.recipients` with their confirmation status; an unconfirmed or ' +
          'unsubscribed address is sent nothing (docs/security.md, "Recipients and mail")',
      ),
    signing_secret: z
      .string()
      .optional()
      .meta({
        description: 'webhook only, and only in the create and rotate answers',
        examples: ['whsec_…'],
      }),
    created_at: dateTime('creation time'),
    updated_at: dateTime('last change'),
    links: linksSchema(),
  })
  .meta({ id: 'Plugin' });

export type PluginView = z.input<typeof pluginSchema>;

export const pluginEnvelope = envelopeSchema('PluginEnvelope', 'plugin', pluginSchema);
export const pluginListEnvelope = listEnvelopeSchema('PluginListEnvelope', 'plugins', pluginSchema);

export const pluginDeletedSchema = z
  .object({
    ok: z.literal(true),
    message: z.literal('plugin removed'),
    plugin: pluginSchema,
    payload: pluginSchema,
    links: linksSchema(),
  })
  .meta({ id: 'PluginDeleted' });

/** The Plugin resource; the signing secret (in the clear) only when just issued: create, rotate. */
export function pluginView(
  plugin: Plugin,
  urls: PublicUrls,
  principal: Principal,
  options: { signingSecret?: string; recipients?: RecipientStatus[] } = {},
): PluginView {
  const self = `${urls.base}/api/forms/${plugin.formId}/plugins/${plugin.id}`;
  const links = [link('self', self), link('form', `${urls.base}/api/forms/${plugin.formId}`)];
  links.push(link('deliveries', `${self}/deliveries`));
  if (can(principal, 'can_create_forms')) {
    links.push(link('update', self, 'PATCH'));
    links.push(link('delete', self, 'DELETE'));
    if (pluginTypeOf(plugin.pluginType)?.signs)
      links.push(link('rotate_secret', `${self}/rotate_secret`, 'POST'));
  }
  return {
    id: plugin.id,
    key: plugin.pluginType,
    plugin_type: plugin.pluginType,
    name: plugin.name,
    enabled: plugin.enabled,
    disabled_reason: plugin.enabled ? null : (plugin.disabledReason ?? DISABLED_BY_ACCOUNT),
    consecutive_failures: plugin.consecutiveFailures,
    last_success_at: plugin.lastSuccessAt?.toISOString() ?? null,
    config: visiblePluginConfig(
      plugin.pluginType,
      plugin.config,
      pluginConfigAccess((scope) => can(principal, scope)),
    ),
    conditions: (plugin.conditions as Conditions | null | undefined) ?? null,
    include_fields: plugin.includeFields ?? null,
    ...(options.recipients ? { recipients: options.recipients } : {}),
    ...(options.signingSecret ? { signing_secret: options.signingSecret } : {}),
    created_at: plugin.createdAt.toISOString(),
    updated_at: plugin.updatedAt.toISOString(),
    links,
  };
}
