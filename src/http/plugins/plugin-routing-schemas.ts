import { z } from 'zod';
import {
  CONDITION_OPS,
  MAX_CONDITION_RULES,
  MAX_ONE_OF_VALUES,
} from '../../plugins/manage/conditions';
import { MAX_INCLUDE_FIELDS } from '../../plugins/manage/include-fields';
import { MAX_WEBHOOK_HEADERS } from '../../plugins/webhook/webhook-headers';

/*
 * The shapes of `conditions`, `include_fields` and a webhook's `config.headers` as the API
 * documents them. Only the shape is read here: the rules (ops, bounds, reserved header names)
 * are the domain's (src/plugins/manage/), whose problems answer 422 `invalid_config`.
 */

const scalar = z.union([z.string(), z.number(), z.boolean()]);

export const conditionsInput = z
  .object({
    match: z.string().optional().describe('`all` (default) or `any` of the rules'),
    rules: z
      .array(
        z
          .object({
            field: z.string().describe('a submitted field, by its exact name'),
            op: z.string().describe(`one of ${CONDITION_OPS.map((op) => `\`${op}\``).join(', ')}`),
            value: z
              .union([scalar, z.array(scalar)])
              .optional()
              .describe(
                `compared as text, ignoring case; required except for \`is_empty\`, \`not_empty\`; a list of up to ${MAX_ONE_OF_VALUES} for \`one_of\``,
              ),
          })
          .meta({ id: 'ConditionRule' }),
      )
      .describe(`1 to ${MAX_CONDITION_RULES} rules`),
  })
  .nullable()
  .meta({
    id: 'PluginConditions',
    description:
      'which submissions the plugin is sent (docs/plugins.md, "Conditions"); null: all. A ' +
      'submission that does not match records a `skipped` delivery with error `conditions: …`.',
    examples: [{ match: 'all', rules: [{ field: 'topic', op: 'equals', value: 'sales' }] }],
  });

export const includeFieldsInput = z
  .array(z.string())
  .nullable()
  .meta({
    id: 'PluginIncludeFields',
    description: `the submitted fields the plugin is sent, by exact name (1 to ${MAX_INCLUDE_FIELDS}); null: all`,
    examples: [['email', 'message']],
  });

export const webhookHeadersInput = z
  .array(
    z
      .object({
        name: z.string().describe('an HTTP header name; not one Formward sets itself'),
        value: z
          .string()
          .optional()
          .describe('sealed at rest, answered masked; on PATCH, omit it to keep the stored one'),
      })
      .meta({ id: 'WebhookHeader' }),
  )
  .meta({
    description: `webhook only: up to ${MAX_WEBHOOK_HEADERS} headers sent with every delivery (docs/plugins.md, "Webhook headers")`,
  });
