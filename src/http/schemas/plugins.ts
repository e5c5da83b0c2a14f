import { z } from 'zod';
import { text } from './text';

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
      .describe('for webhook: `{url}`, an https:// URL on a public address'),
  })
  .meta({ id: 'CreatePlugin' });

export const webhookConfig = z.object({
  url: z.string({ error: 'is required' }).max(2048),
});

export const updatePluginBody = z
  .strictObject({
    enabled: z
      .boolean({ error: 'is required (true or false)' })
      .describe('false disables the plugin; true enables it and resets its failure count'),
  })
  .meta({ id: 'UpdatePlugin' });
