import { z } from 'zod';
import { linksSchema } from '../kit/answers/links';
import { idString } from '../kit/answers/fields';

export const deliveryResultSchema = z
  .object({
    plugin_id: z.string(),
    plugin_type: z.string(),
    ok: z.boolean(),
    status_code: z.number().int().nullable().describe("the receiver's HTTP status"),
    error: z.string().nullable(),
    duration_ms: z.number().int().min(0).nullable(),
    attempts: z.number().int().min(0).describe('attempts made (1 in a test run)'),
    delivery_id: z.string().nullable().describe('the `webhook-id` the receiver saw'),
  })
  .describe('One plugin delivery of a `?test=true` run.')
  .meta({ id: 'DeliveryResult' });

/** The specification's IngestResult: what JSON ingest (and `/f/` asked for JSON) answers. */
export const ingestResultSchema = z
  .object({
    ok: z.literal(true),
    id: idString('the stored submission'),
    receipt: z
      .string()
      .nullable()
      .describe(
        'a compact JWS (EdDSA, Ed25519) over `{form_id, submission_id, received_at, ' +
          "payload_sha256}`, signed with the instance's key `kid` of " +
          '`/.well-known/jwks.json` (docs/receipts.md); null when no signing key could be ' +
          'read (the submission is stored all the same)',
      ),
    manage_url: z
      .string()
      .meta({ format: 'uri' })
      .nullable()
      .describe(
        "the submitter's private link to see (and, as the form allows, edit or delete) what " +
          'was stored: `{ingest_url}/s/{submission_id}/{secret}`, given this once and never ' +
          "again (only its hash is kept); null when the form's `submitter_access` is `none` " +
          'and on `?test=true` runs (docs/manage-links.md)',
      ),
    test: z.literal(true).optional().describe('present on `?test=true` runs'),
    deliveries: z
      .array(deliveryResultSchema)
      .optional()
      .describe('only with `?test=true`: each delivery, run once and synchronously'),
    links: linksSchema('rels `submission` and `form`'),
  })
  .meta({ id: 'IngestResult' });

export type IngestResult = z.input<typeof ingestResultSchema>;
