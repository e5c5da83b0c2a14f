import { z } from 'zod';
import { linksSchema } from '../answers/links';

/**
 * Every error code we answer, with its status and when (docs/api-conventions.md, Errors).
 * `also` names another status a code comes with on some routes; a route declares it as
 * `code@status`.
 */
export const ERROR_CODES = {
  validation_failed: {
    status: 422,
    when: 'a body or query fails validation; `errors` lists `field: problem` strings',
    also: {
      400: 'an HTML form body that cannot be read at all (malformed multipart or urlencoded)',
    },
  },
  invalid_json: { status: 400, when: 'the body is not parseable JSON' },
  invalid_payload: {
    status: 422,
    when: 'ingest: a field name or value (at any depth) is not well-formed Unicode, such as a lone UTF-16 surrogate (`"\\ud800"`); `errors` names each field; nothing is stored',
  },
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
  form_closed: {
    status: 403,
    when: "ingest to a form with `limits` outside its window (before `opens_at`, from `closes_at`) or past its `max_submissions`; the message is the form's `closed_message`, and `opens_at` and `closes_at` come with it; nothing is stored (docs/form-limits.md)",
  },
  edit_closed: {
    status: 403,
    when: "a change through a submission's manage link when the form does not let its submitters make it (`submitter_access`) or its time has passed (`edit_until` after the submission, or the form's `limits.closes_at`); nothing is changed (docs/manage-links.md)",
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
  captcha_failed: {
    status: 422,
    when: "ingest to a form with a `captcha`: the provider's response field is missing, or the check refused it (docs/captcha.md); nothing is stored",
  },
  invalid_config: {
    status: 422,
    when: 'plugin config failed validation: non-HTTPS URL, private or internal address, missing field',
  },
  unsupported_plugin: {
    status: 422,
    when: 'a `plugin_type` other than `webhook` on plugin creation',
  },
  already_submitted: {
    status: 409,
    when: 'ingest to a form with a `limits.unique_field`: a submission with the same value of that field (trimmed; case-insensitive for an `email` field) was already accepted; nothing is stored (docs/form-limits.md)',
  },
  plugin_disabled: {
    status: 409,
    when: 'recovering the deliveries of a disabled plugin; enable it first',
  },
  limit_reached: {
    status: 409,
    when: 'a budget is used up (forms per account, `MAX_FORMS_PER_ACCOUNT`, counted per owner over the accounts they own; plugins per form, `MAX_PLUGINS_PER_FORM`; versions of a submission, `MAX_SUBMISSION_VERSIONS`); the message names the limit and its value',
  },
  recovery_running: {
    status: 409,
    when: 'a recovery of this plugin is already running (at most one at a time); the `recovery` link reads its progress',
  },
  domain_taken: {
    status: 409,
    when: 'claiming a custom domain another account holds (which one is never said; docs/custom-domains.md)',
  },
  slug_taken: {
    status: 409,
    when: "a form's `slug` is already used by another form on the same custom domain",
  },
  rate_limited: {
    status: 429,
    when: 'too many requests from one address (submissions to a form, domain checks), replays from one account (`REPLAY_RATE`) or changes through the API from one key or session (`API_WRITE_RATE`); see `Retry-After`',
  },
  internal_error: {
    status: 500,
    when: 'something failed on our side; it is logged, never a stack trace in the body',
  },
  unavailable: {
    status: 503,
    when: 'the database or, for a replay, the delivery engine (Temporal) is briefly unreachable; try again after `Retry-After` seconds',
  },
} as const satisfies Record<
  string,
  { status: number; when: string; also?: Record<number, string> }
>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** A code at its usual status, or `code@status` for one of its `also` statuses. */
export type ErrorRef =
  | ErrorCode
  | {
      [C in ErrorCode]: (typeof ERROR_CODES)[C] extends { also: infer A }
        ? `${C}@${keyof A & number}`
        : never;
    }[ErrorCode];

/** The status and code an error reference stands for. */
export function resolveErrorRef(ref: ErrorRef): { code: ErrorCode; status: number } {
  const [code, status] = ref.split('@') as [ErrorCode, string | undefined];
  return { code, status: status === undefined ? ERROR_CODES[code].status : Number(status) };
}

/** What a code means at a status (its `also` text for a non-usual status). */
export function errorMeaning(code: ErrorCode, status: number): string {
  const entry: { status: number; when: string; also?: Record<number, string> } = ERROR_CODES[code];
  return status === entry.status ? entry.when : (entry.also?.[status] ?? entry.when);
}

export const errorSchema = z
  .object({
    ok: z.literal(false),
    error: z.string().describe('machine-readable code, see the errors table'),
    message: z.string().describe('human-readable explanation'),
    errors: z.array(z.string()).optional().describe('validation problems as `field: problem`'),
    field_errors: z
      .record(z.string(), z.string())
      .optional()
      .describe(
        "ingest (or a manage-link edit) on a form with `fields`, with `validation_failed` or `already_submitted`: one message by field name (docs/form-fields.md), in English or in the supported language the request's `Accept-Language` asks for (docs/languages.md); `errors` stay English",
      ),
    opens_at: z
      .string()
      .nullable()
      .optional()
      .describe('`form_closed`: when the form opens (its `limits.opens_at`); null: no start'),
    closes_at: z
      .string()
      .nullable()
      .optional()
      .describe('`form_closed`: when the form closes (its `limits.closes_at`); null: no end'),
    links: linksSchema('rel `docs`: where the error codes are explained'),
  })
  .describe('Every 4xx and 5xx JSON answer.')
  .meta({ id: 'Error' });
