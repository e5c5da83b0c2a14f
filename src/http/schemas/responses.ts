import { z } from 'zod';

/*
 * What the API answers, for the OpenAPI document and /docs only: nothing is validated with
 * these. They mirror src/domain/*-view.ts, src/domain/stats/*.ts and src/http/envelope.ts;
 * clients must ignore fields not listed here (decisions §2: we may add fields).
 */

const dateTime = (description: string) => z.string().meta({ format: 'date-time', description });
const count = (description: string) => z.number().int().min(0).describe(description);
const idString = (description: string) => z.string().meta({ description, examples: ['42'] });

export const linkSchema = z
  .object({
    rel: z.string().describe('relation: self, form, submissions, next, docs, …'),
    href: z.string().meta({ format: 'uri', description: 'absolute URL' }),
    method: z.string().optional().describe('HTTP method to use, present only when it is not GET'),
  })
  .describe('A hypermedia link. Resources carry the links the caller may use.')
  .meta({ id: 'Link' });

const links = (description = 'related resources and the actions this credential may use') =>
  z.array(linkSchema).describe(description);

/** Decisions §3 and the specification's own codes, with the status each one comes with. */
export const ERROR_CODES = {
  validation_failed: {
    status: 422,
    when: 'a body or query fails validation; `errors` lists `field: problem` strings',
  },
  invalid_json: { status: 400, when: 'the body is not parseable JSON' },
  unauthorized: {
    status: 401,
    when: 'no credential was sent (or, on `/api/stats`, no dashboard session)',
  },
  invalid_api_key: {
    status: 401,
    when: 'the bearer key matches no active key (unknown or revoked)',
  },
  forbidden: {
    status: 403,
    when: 'the key lacks the required scope, or a session-authenticated change lacks the CSRF token',
  },
  domain_not_allowed: {
    status: 403,
    when: "ingest from an origin outside the form's `allowed_domains`",
  },
  not_found: {
    status: 404,
    when: 'the form, submission, plugin or file does not exist, or belongs to another account',
  },
  not_active: {
    status: 404,
    when: 'the form exists but `is_active` is false; the submission is rejected',
  },
  method_not_allowed: {
    status: 405,
    when: 'the path exists but not with this method; see the `Allow` header',
  },
  payload_too_large: { status: 413, when: 'the body or a field, file or count is over a limit' },
  unsupported_media_type: { status: 415, when: 'a body type the endpoint does not take' },
  invalid_config: {
    status: 422,
    when: 'plugin config failed validation: non-HTTPS URL, private or internal address, missing field',
  },
  unsupported_plugin: {
    status: 422,
    when: 'a `plugin_type` other than `webhook` on plugin creation',
  },
  rate_limited: {
    status: 429,
    when: 'too many submissions from one address to one form; see `Retry-After`',
  },
  internal_error: {
    status: 500,
    when: 'something failed on our side; it is logged, never a stack trace in the body',
  },
  unavailable: {
    status: 503,
    when: 'the delivery engine (Temporal) is unreachable, so a replay cannot start; see `Retry-After`',
  },
} as const satisfies Record<string, { status: number; when: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const errorSchema = z
  .object({
    ok: z.literal(false),
    error: z.string().describe('machine-readable code, see the errors table'),
    message: z.string().describe('human-readable explanation'),
    errors: z.array(z.string()).optional().describe('validation problems as `field: problem`'),
    links: links('rel `docs`: where the error codes are explained'),
  })
  .describe('Every 4xx and 5xx JSON answer.')
  .meta({ id: 'Error' });

export const formSchema = z
  .object({
    id: idString('form id'),
    name: z.string(),
    endpoint_token: z
      .string()
      .describe('public token used in ingest paths; accepted wherever a form id is'),
    success_redirect_url: z
      .string()
      .meta({ format: 'uri' })
      .nullable()
      .describe('where browsers go after posting; null: our thank-you page'),
    is_active: z.boolean().describe('false: submissions are rejected with `not_active`'),
    allowed_domains: z
      .array(z.string())
      .describe('empty: any origin; otherwise these domains and their subdomains'),
    notification_email_addresses: z.array(z.string().meta({ format: 'email' })),
    submission_url: z.string().meta({ format: 'uri', description: 'POST target for HTML forms' }),
    json_url: z.string().meta({ format: 'uri', description: 'POST target for JSON submissions' }),
    thanks_url: z.string().meta({ format: 'uri', description: 'the default thank-you page' }),
    embed_html: z.string().describe('ready-to-paste form markup with the `_hp` honeypot'),
    autocomplete_script_url: z.string().meta({ format: 'uri' }),
    submission_count: count('non-spam submissions'),
    submission_spam_count: count('spam submissions'),
    last_submission_at: dateTime('newest non-spam submission').nullable(),
    examples: z.record(z.string(), z.string()).describe('copy-paste request examples by name'),
    help: z.string().meta({ format: 'uri', description: 'documentation of the ingest endpoints' }),
    created_at: dateTime('creation time'),
    updated_at: dateTime('last change'),
    links: links(),
  })
  .meta({ id: 'Form' });

export const submissionFileSchema = z
  .object({
    filename: z.string(),
    content_type: z.string(),
    size: count('bytes'),
    url: z.string().meta({
      format: 'uri',
      description: 'authenticated download link (needs `can_read_submissions`)',
    }),
  })
  .describe('How an uploaded file appears in `payload_json`, under its field name.')
  .meta({ id: 'SubmissionFile' });

export const submissionSchema = z
  .object({
    id: idString('submission id'),
    form_id: idString('form id'),
    form_endpoint_token: z.string(),
    payload_json: z
      .record(z.string(), z.unknown())
      .describe(
        'the submitted fields; repeated names are arrays, uploads are SubmissionFile objects',
      ),
    special_normalized: z
      .object({
        email: z.string().optional().describe('trimmed and lower-cased'),
        name: z.string().optional().describe('trimmed'),
        message: z.string().optional().describe('trimmed'),
      })
      .nullable()
      .describe('normalized special fields; null when none came'),
    source_ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    referrer: z.string().nullable(),
    is_spam: z.boolean(),
    spam_reason: z.string().nullable().describe('e.g. `honeypot`; null when not spam'),
    created_at: dateTime('when it was received'),
    updated_at: dateTime('last change'),
    links: links(),
  })
  .meta({ id: 'Submission' });

export const pluginSchema = z
  .object({
    id: idString('plugin id'),
    key: z.string().describe('plugin type key, e.g. `webhook`'),
    plugin_type: z.string().describe('the same type as named in create requests'),
    name: z.string(),
    enabled: z.boolean(),
    config: z.record(z.string(), z.unknown()).describe('for webhook: `{url}`'),
    signing_secret: z
      .string()
      .optional()
      .meta({
        description: 'webhook only, and only in the create and rotate answers',
        examples: ['whsec_…'],
      }),
    created_at: dateTime('creation time'),
    updated_at: dateTime('last change'),
    links: links(),
  })
  .meta({ id: 'Plugin' });

export const listMetaSchema = z
  .object({
    page: z.number().int().min(1),
    per_page: z.number().int().min(0).describe('the page size used (after clamping)'),
    total: count('items across all pages'),
    total_pages: z.number().int().min(1),
    per_page_clamped: z.boolean().optional().describe('present when per_page was over the maximum'),
    max_per_page: z.number().int().optional(),
    requested_per_page: z.number().int().optional(),
  })
  .meta({ id: 'ListMeta' });

/** Decisions §2: `{ok, <key>, payload, links}`, `<key>` and `payload` holding the same value. */
function envelope(id: string, key: string, value: z.ZodType) {
  return z
    .object({ ok: z.literal(true), [key]: value, payload: value, links: links() })
    .describe(`\`${key}\` and \`payload\` carry the same value (both envelope variants at once).`)
    .meta({ id });
}

function listEnvelope(id: string, key: string, item: z.ZodType) {
  return z
    .object({
      ok: z.literal(true),
      [key]: z.array(item),
      payload: z.array(item),
      meta: listMetaSchema,
      links: links('self, first, last, and next/prev where they exist (also in the Link header)'),
    })
    .describe(`\`${key}\` and \`payload\` carry the same list.`)
    .meta({ id });
}

export const formEnvelope = envelope('FormEnvelope', 'form', formSchema);
export const formListEnvelope = listEnvelope('FormListEnvelope', 'forms', formSchema);
export const submissionEnvelope = envelope('SubmissionEnvelope', 'submission', submissionSchema);
export const submissionListEnvelope = listEnvelope(
  'SubmissionListEnvelope',
  'submissions',
  submissionSchema,
);
export const pluginEnvelope = envelope('PluginEnvelope', 'plugin', pluginSchema);
export const pluginListEnvelope = listEnvelope('PluginListEnvelope', 'plugins', pluginSchema);

export const pluginDeletedSchema = z
  .object({
    ok: z.literal(true),
    message: z.literal('plugin removed'),
    plugin: pluginSchema,
    payload: pluginSchema,
    links: links(),
  })
  .meta({ id: 'PluginDeleted' });

export const apiRootSchema = z
  .object({
    ok: z.literal(true),
    account_id: idString('the account this credential belongs to'),
    links: links('the operations this credential may use, plus `openapi` and `docs`'),
  })
  .meta({ id: 'ApiRoot' });

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

export const ingestResultSchema = z
  .object({
    ok: z.literal(true),
    id: idString('the stored submission'),
    test: z.literal(true).optional().describe('present on `?test=true` runs'),
    deliveries: z
      .array(deliveryResultSchema)
      .optional()
      .describe('only with `?test=true`: each delivery, run once and synchronously'),
    links: links('rels `submission` and `form`'),
  })
  .meta({ id: 'IngestResult' });

export const accountStatsSchema = z
  .object({
    totalForms: count('forms of the account'),
    active: count('forms accepting submissions'),
    subs24h: count('non-spam submissions in the last 24 hours'),
    subs7d: count('non-spam submissions in the last 7 days'),
  })
  .meta({ id: 'AccountStats' });

export const formStatsSchema = z
  .object({
    form_id: idString('form id'),
    endpoint_token: z.string(),
    is_active: z.boolean(),
    total_submissions: count('non-spam submissions, all time'),
    spam_submissions: count('spam submissions, all time'),
    subs24h: count('non-spam, last 24 hours'),
    subs7d: count('non-spam, last 7 days'),
    subs30d: count('non-spam, last 30 days'),
    spam30d: count('spam, last 30 days'),
    last_submission_at: dateTime('newest non-spam submission').nullable(),
    daily: z
      .array(
        z.object({
          date: z.string().meta({ format: 'date', description: 'UTC day' }),
          submissions: count('non-spam'),
          spam: count('spam'),
        }),
      )
      .describe('the last 30 UTC days, oldest first'),
  })
  .meta({ id: 'FormStats' });

export const accountStatsEnvelope = envelope('AccountStatsEnvelope', 'stats', accountStatsSchema);
export const formStatsEnvelope = envelope('FormStatsEnvelope', 'stats', formStatsSchema);

const spamWindow = z
  .object({
    submissions: count('all submissions'),
    spam: count('spam among them'),
    spam_ratio: z.number().min(0).max(1).describe('spam / submissions, 4 decimals'),
  })
  .meta({ id: 'SpamWindow' });

export const spamMetricsSchema = z
  .object({
    ok: z.literal(true),
    generated_at: dateTime('when these numbers were computed (cached up to 60 s)'),
    all_time: spamWindow,
    last_24h: spamWindow,
    last_7d: spamWindow,
    by_reason: z.record(z.string(), z.number().int()).describe('spam counts by reason, all time'),
    links: links(),
  })
  .describe('Platform-wide aggregates; nothing per account.')
  .meta({ id: 'SpamMetrics' });

const dnsCheck = (what: string) =>
  z.object({
    expected: z.string().describe(`the ${what} value that verifies the domain`),
    found: z.array(z.string()).describe(`the ${what} values found`),
    ok: z.boolean(),
  });

export const domainVerificationSchema = z
  .object({
    ok: z.literal(true).describe('the check ran; see `verified` for its outcome'),
    domain: z.string().describe('the normalized domain checked'),
    verified: z.boolean(),
    method: z.enum(['cname', 'txt']).nullable().describe('which record verified it'),
    records: z.object({
      cname: dnsCheck('CNAME'),
      txt: dnsCheck('TXT'),
    }),
    missing: z.array(z.string()).describe('what to add when not verified'),
    checked_at: dateTime('when DNS was queried'),
    error: z.string().optional().describe('DNS failures other than "no such record"'),
    links: links(),
  })
  .describe(
    'A custom form-page domain verifies with a CNAME to the ingest host, or a TXT record ' +
      '`formward-verification=<token>` on the domain or on `_formward.<domain>`.',
  )
  .meta({ id: 'DomainVerification' });

export const healthSchema = z.object({ ok: z.boolean() }).meta({ id: 'Health' });

export const readinessSchema = z
  .object({
    ok: z.boolean(),
    checks: z
      .record(z.string(), z.string())
      .describe('`postgres` and `temporal`: `ok` or the failure'),
    links: links(),
  })
  .meta({ id: 'Readiness' });

export const signedOutSchema = z
  .object({ ok: z.literal(true), message: z.literal('signed out') })
  .meta({ id: 'SignedOut' });

export const deliveryAttemptSchema = z
  .object({
    id: idString('the attempt record'),
    delivery_id: z
      .string()
      .describe('the same for every attempt of one delivery; the `webhook-id` header'),
    submission_id: idString('the submission delivered'),
    plugin_id: idString('the plugin delivered to'),
    plugin_type: z.string(),
    attempt: z.number().int().min(1).describe('1 for the first try, up to 4'),
    status: z
      .enum(['succeeded', 'failed', 'pending_retry'])
      .describe('`pending_retry`: failed, another attempt follows; `failed`: the last one failed'),
    http_status: z.number().int().nullable().describe("the receiver's status; null: no answer"),
    error: z.string().nullable().describe('why the attempt failed (status, timeout, network)'),
    duration_ms: z.number().int().nullable(),
    response_body: z.string().nullable().describe("the receiver's answer, cut at 4096 bytes"),
    is_replay: z.boolean().describe('made by a replay'),
    is_test: z.boolean().describe('made by a `?test=true` ingest'),
    workflow_id: z.string().nullable().describe('the Temporal workflow that made it'),
    workflow_run_id: z.string().nullable(),
    started_at: dateTime('when the attempt began'),
    finished_at: dateTime('when it ended').nullable(),
    links: links('rels `submission` and `plugin`'),
  })
  .meta({ id: 'DeliveryAttempt' });

export const deliveryListEnvelope = listEnvelope(
  'DeliveryListEnvelope',
  'deliveries',
  deliveryAttemptSchema,
);

export const replayEnvelope = envelope(
  'ReplayEnvelope',
  'replay',
  z
    .object({
      submission_id: idString('the submission delivered again'),
      workflow_id: z.string().describe('`submission-{id}-replay-…`'),
      run_id: z.string(),
      links: links('rels `deliveries` and `submission`'),
    })
    .meta({ id: 'Replay' }),
);
