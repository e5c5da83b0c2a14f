import { z } from 'zod';
import { text } from '../kit/answers/text';
import { conditionsInput, includeFieldsInput, webhookHeadersInput } from './plugin-routing-schemas';

export const createPluginBody = z
  .object({
    plugin_type: z
      .string({ error: 'is required' })
      .min(1, 'is required')
      .describe('only `webhook` can be created through the API'),
    name: text().trim().min(1).max(200).optional().describe('default: "Webhook to <host>"'),
    enabled: z.boolean().optional().describe('default true'),
    config: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'for webhook: `{url, headers?}`, an https:// URL on a public address and up to 10 `{name, value}` headers',
      ),
    conditions: conditionsInput.optional(),
    include_fields: includeFieldsInput.optional(),
  })
  .meta({ id: 'CreatePlugin' });

export const webhookConfig = z.object({
  url: z.string({ error: 'is required' }).max(2048),
  headers: z.unknown().optional(),
});

export const updatePluginBody = z
  .strictObject({
    enabled: z
      .boolean({ error: 'must be true or false' })
      .optional()
      .describe('false disables the plugin; true enables it and resets its failure count'),
    conditions: conditionsInput.optional(),
    include_fields: includeFieldsInput.optional(),
    config: z
      .strictObject({ headers: webhookHeadersInput })
      .optional()
      .describe('webhook only: `{headers}` replaces the set'),
  })
  .refine((body) => Object.keys(body).length > 0, {
    message: 'give at least one of enabled, conditions, include_fields, config',
  })
  .meta({ id: 'UpdatePlugin' });
