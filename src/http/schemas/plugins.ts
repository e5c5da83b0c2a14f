import { z } from 'zod';

export const createPluginBody = z
  .object({
    plugin_type: z.string({ error: 'is required' }).min(1, 'is required'),
    name: z.string().trim().min(1).max(200).optional(),
    enabled: z.boolean().optional(),
    config: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'CreatePlugin' });

export const webhookConfig = z.object({
  url: z.string({ error: 'is required' }).max(2048),
});
