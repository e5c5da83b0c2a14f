import { z } from 'zod';
import { ROLES, SCOPES, type Scope } from '../../domain/accounts/scopes';
import { SESSION_COOKIE } from '../cookies';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, paginationQuery } from '../pagination';
import { createFormBody, updateFormBody } from '../schemas/forms';
import { ingestQuery, jsonSubmissionBody } from '../schemas/ingest';
import { createPluginBody } from '../schemas/plugins';
import { verifyDomainQuery } from '../schemas/public';
import * as res from '../schemas/responses';
import { ERROR_CODES, type ErrorCode } from '../schemas/responses';
import { submissionListQuery } from '../schemas/submissions';

/*
 * The OpenAPI 3.1 description of every route in src/http/routes, generated from the zod
 * schemas that validate the requests (so the two cannot drift) plus the documentation
 * schemas of src/http/schemas/responses.ts.
 */

type Json = Record<string, unknown>;
type Urls = { base: string; ingest: string };
type Method = 'get' | 'post' | 'patch' | 'delete' | 'options';
type Io = 'input' | 'output';

/** Who may call an operation: nobody in particular, any credential, a scope, or a session. */
type Access = 'public' | 'any' | Scope | 'session';

type Answer = {
  status: number;
  description: string;
  /** A zod schema for JSON, a media type and JSON Schema for other bodies, or no body. */
  body?: z.ZodType | { mediaType: string; schema?: Json };
  headers?: Record<string, string>;
};

type Operation = {
  method: Method;
  path: string;
  id: string;
  tag: Tag;
  summary: string;
  description?: string;
  access: Access;
  /** Served on the ingest URL rather than the API base URL. */
  ingest?: boolean;
  query?: z.ZodObject;
  body?: { schema: z.ZodType; mediaTypes: string[]; required: boolean };
  answers: Answer[];
  errors: ErrorCode[];
  /** Errors answered as an HTML page to browsers (`/f/...`, decisions §3). */
  htmlErrors?: boolean;
};

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: Json;
  servers: { url: string; description?: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Partial<Record<Method, Json>>>;
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> };
} & Json;

const TAGS = {
  Ingest: 'Posting submissions from HTML forms and JSON clients. No authentication.',
  'API root': 'Where an API client starts: its account and the operations it may use.',
  Forms: 'Create, read and update the forms of the account.',
  Submissions: 'Read stored submissions (non-spam and spam) and their uploaded files.',
  Plugins: 'Delivery targets of a form. Only webhooks can be created through the API.',
  Deliveries:
    'Every webhook delivery attempt, recorded by the delivery engine, and replay of a submission.',
  Stats: 'Counts for the account (dashboard sessions only) and for one form.',
  Public: 'Unauthenticated endpoints: platform spam metrics and custom-domain checks.',
  Dashboard: 'The browser sign-in that gives a session cookie.',
  Documentation: 'This reference, as HTML and as an OpenAPI document.',
  Health: 'Liveness and readiness probes for orchestrators.',
} as const;
type Tag = keyof typeof TAGS;

// ---------------------------------------------------------------------------------------------
// zod to JSON Schema, with named schemas collected as components

const REF = '#/components/schemas/';

/** Responses may gain fields (decisions §2), so output objects stay open; safe-int bounds are noise. */
function tidy(io: Io) {
  return ({ jsonSchema }: { jsonSchema: Json }) => {
    if (io === 'output' && jsonSchema.additionalProperties === false)
      delete jsonSchema.additionalProperties;
    if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
    if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  };
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      key === '$ref' && typeof v === 'string' ? v.replace(/^#\/\$defs\//, REF) : rewriteRefs(v),
    ]),
  );
}

/** Converts a schema; those with a `.meta({id})` land in `components` and are referenced. */
function toJsonSchema(schema: z.ZodType, io: Io, components: Record<string, Json>): Json {
  const generated = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    override: tidy(io),
  }) as Json;
  const { $schema: _dialect, $defs, ...root } = generated;
  for (const [id, definition] of Object.entries(($defs ?? {}) as Record<string, Json>)) {
    const rewritten = rewriteRefs(definition) as Json;
    const existing = components[id];
    if (existing && JSON.stringify(existing) !== JSON.stringify(rewritten)) {
      // The same id as request input and as response output would describe two shapes.
      throw new Error(`OpenAPI component ${id} has two different shapes`);
    }
    components[id] = rewritten;
  }
  return rewriteRefs(root) as Json;
}

const refName = (schema: Json) =>
  typeof schema.$ref === 'string' && schema.$ref.startsWith(REF)
    ? schema.$ref.slice(REF.length)
    : null;

/** Pagination lives outside src/http/schemas, so its parameters are described here. */
const PARAMETER_NOTES: Record<string, string> = {
  page: 'page number, an integer >= 1 (default 1)',
  per_page: `page size, an integer >= 1 (default ${DEFAULT_PER_PAGE}; above ${MAX_PER_PAGE} is clamped and \`meta\` says so)`,
};

/** One query parameter per property of a zod object, required unless optional. */
function queryParameters(schema: z.ZodObject, components: Record<string, Json>): Json[] {
  const local: Record<string, Json> = {};
  const root = toJsonSchema(schema, 'input', local);
  const ownId = refName(root);
  const object = ownId ? local[ownId]! : root;
  for (const [id, definition] of Object.entries(local))
    if (id !== ownId) components[id] = definition;
  const required = new Set((object.required ?? []) as string[]);
  const properties = (object.properties ?? {}) as Record<string, Json>;
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    return {
      name,
      in: 'query',
      required: required.has(name),
      description: description ?? PARAMETER_NOTES[name],
      schema: propertySchema,
    };
  });
}

const PATH_PARAMETERS: Record<string, string> = {
  id: 'the resource id (for forms also the endpoint_token)',
  form_id: 'a form id or endpoint_token',
  file_id: 'the file id, as in the `url` of the file in `payload_json`',
  endpoint_token: "the form's endpoint_token",
};

function pathParameters(path: string): Json[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    description: PATH_PARAMETERS[name!] ?? name,
    schema: { type: 'string' },
  }));
}

// ---------------------------------------------------------------------------------------------
// Access, errors and responses

const SECURITY: Record<Access, Json[]> = {
  public: [],
  any: [{ apiKey: [] }, { session: [] }],
  session: [{ session: [] }],
  can_create_forms: [{ apiKey: [] }, { session: [] }],
  can_read_submissions: [{ apiKey: [] }, { session: [] }],
  can_read_spam_submissions: [{ apiKey: [] }, { session: [] }],
};

function accessNote(access: Access): string {
  switch (access) {
    case 'public':
      return 'No authentication.';
    case 'any':
      return 'Any valid API key or a dashboard session; no scope needed.';
    case 'session':
      return 'A signed-in dashboard session only: API keys are refused with 401 `unauthorized`.';
    default:
      return `Needs the scope \`${access}\` (dashboard sessions have every scope).`;
  }
}

/** The codes every operation of a kind can answer, on top of its own. */
function implicitErrors(op: Operation): ErrorCode[] {
  const codes: ErrorCode[] = [];
  // A key sent to a session-only operation is still checked first, so it can be invalid too.
  if (op.access !== 'public') codes.push('unauthorized', 'invalid_api_key');
  const changes = op.method !== 'get' && op.method !== 'options';
  // A scope check, or the CSRF check of a session-authenticated change (decisions §4).
  if (SCOPES.includes(op.access as Scope) || (changes && op.access !== 'public'))
    codes.push('forbidden');
  if (op.body?.mediaTypes.includes('application/json'))
    codes.push('invalid_json', 'unsupported_media_type', 'payload_too_large', 'validation_failed');
  if (op.query) codes.push('validation_failed');
  codes.push('internal_error');
  return codes;
}

function errorResponses(op: Operation): Record<string, Json> {
  const codes = [...new Set([...op.errors, ...implicitErrors(op)])];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, Json> = {};
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const schema = {
      allOf: [
        { $ref: `${REF}Error` },
        { type: 'object', properties: { error: { type: 'string', enum: statusCodes } } },
      ],
    };
    const content: Json = { 'application/json': { schema } };
    if (op.htmlErrors)
      content['text/html'] = { schema: { type: 'string', description: 'a page for browsers' } };
    responses[String(status)] = {
      description: statusCodes.map((c) => `\`${c}\`: ${ERROR_CODES[c].when}`).join('; '),
      ...(status === 429 ? { headers: header('Retry-After', 'seconds to wait') } : {}),
      content,
      'x-error-codes': statusCodes,
    };
  }
  return responses;
}

const header = (name: string, description: string) => ({
  [name]: { description, schema: { type: 'string' } },
});

function answerResponse(answer: Answer, components: Record<string, Json>): Json {
  const response: Json = { description: answer.description };
  if (answer.headers) {
    response.headers = Object.fromEntries(
      Object.entries(answer.headers).map(([name, text]) => [name, header(name, text)[name]]),
    );
  }
  if (answer.body && 'mediaType' in answer.body) {
    response.content = { [answer.body.mediaType]: { schema: answer.body.schema ?? {} } };
  } else if (answer.body) {
    response.content = {
      'application/json': { schema: toJsonSchema(answer.body, 'output', components) },
    };
  }
  return response;
}

function toOperation(op: Operation, urls: Urls, components: Record<string, Json>): Json {
  const parameters = [
    ...pathParameters(op.path),
    ...(op.query ? queryParameters(op.query, components) : []),
  ];
  const responses: Record<string, Json> = {};
  for (const answer of op.answers)
    responses[String(answer.status)] = answerResponse(answer, components);
  Object.assign(responses, errorResponses(op));
  const description = [op.description, accessNote(op.access)].filter(Boolean).join('\n\n');
  const operation: Json = {
    operationId: op.id,
    tags: [op.tag],
    summary: op.summary,
    description,
    security: SECURITY[op.access],
  };
  if (op.access !== 'public') {
    operation['x-required-scope'] = SCOPES.includes(op.access as Scope) ? op.access : null;
  }
  if (op.ingest) operation.servers = [{ url: urls.ingest, description: 'ingest' }];
  if (parameters.length > 0) operation.parameters = parameters;
  if (op.body) {
    const schema = toJsonSchema(op.body.schema, 'input', components);
    operation.requestBody = {
      required: op.body.required,
      content: Object.fromEntries(op.body.mediaTypes.map((type) => [type, { schema }])),
    };
  }
  operation.responses = responses;
  return operation;
}

// ---------------------------------------------------------------------------------------------
// Documentation-only request schemas (bodies parsed by busboy or express, not by zod)

const htmlFormSubmission = z
  .object({
    _hp: z
      .string()
      .optional()
      .describe('honeypot: render it hidden and empty; filled means spam (never stored)'),
    _ts: z
      .string()
      .optional()
      .describe(
        'page-load time in ms since the epoch, filled by the embed markup; a form sent less ' +
          'than 3 s after it is spam (`too_fast`); never stored',
      ),
    email: z.string().optional().describe('when present, must be an e-mail address'),
    name: z.string().optional(),
    message: z.string().optional(),
  })
  .catchall(z.union([z.string(), z.array(z.string())]))
  .describe(
    'Any field names. Repeated names become arrays; multipart file parts are stored and ' +
      'appear in `payload_json` as SubmissionFile objects.',
  )
  .meta({ id: 'HtmlFormSubmission' });

const loginForm = z
  .object({
    email: z.string().max(320),
    password: z.string().max(1024),
    _csrf: z.string().describe('the hidden value of the sign-in form'),
  })
  .meta({ id: 'LoginForm' });

const logoutForm = z
  .object({
    _csrf: z.string().optional().describe('or the `X-CSRF-Token` header, or a same-origin Origin'),
  })
  .meta({ id: 'LogoutForm' });

const FORM_MEDIA_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];
const html = (description: string): Answer['body'] => ({
  mediaType: 'text/html',
  schema: { type: 'string', description },
});
const LIST_HEADERS = { Link: 'RFC 8288: the same self/first/last/next/prev links as the body' };

// ---------------------------------------------------------------------------------------------
// Every route of src/http/routes

const apiRoot = (path: string, id: string): Operation => ({
  method: 'get',
  path,
  id,
  tag: 'API root',
  summary: path === '/api' ? 'The account and its operations' : 'The API root (trailing slash)',
  description:
    'The account id and links to the operations this credential permits, plus the ' +
    '`openapi` document and the `docs`.',
  access: 'any',
  answers: [{ status: 200, description: 'the API root', body: res.apiRootSchema }],
  errors: [],
});

const submissionList = (spam: boolean): Operation => ({
  method: 'get',
  path: spam ? '/api/submissions/spam' : '/api/submissions',
  id: spam ? 'listSpamSubmissions' : 'listSubmissions',
  tag: 'Submissions',
  summary: spam ? 'List spam submissions' : 'List submissions',
  description:
    `${spam ? 'Spam' : 'Non-spam'} submissions of the account, newest first, one page at a ` +
    `time (at most ${MAX_PER_PAGE} a page). \`range\` defaults to \`24h\`; \`all\` removes the ` +
    'time limit.',
  access: spam ? 'can_read_spam_submissions' : 'can_read_submissions',
  query: submissionListQuery,
  answers: [
    {
      status: 200,
      description: 'one page of submissions',
      body: res.submissionListEnvelope,
      headers: LIST_HEADERS,
    },
  ],
  errors: ['not_found'],
});

/** A page of delivery attempts (decisions §7), of a submission or of a plugin. */
const deliveryLog = (
  path: string,
  id: string,
  summary: string,
  description: string,
): Operation => ({
  method: 'get',
  path,
  id,
  tag: 'Deliveries',
  summary,
  description,
  access: 'can_read_submissions',
  query: paginationQuery,
  answers: [
    {
      status: 200,
      description: 'one page of attempts',
      body: res.deliveryListEnvelope,
      headers: LIST_HEADERS,
    },
  ],
  errors: ['not_found'],
});

const OPERATIONS: Operation[] = [
  {
    method: 'post',
    path: '/f/{endpoint_token}',
    id: 'submitForm',
    tag: 'Ingest',
    summary: 'Post an HTML form',
    description:
      'The `action` of an HTML form. Browsers are redirected (302) to the thank-you page or ' +
      "to the form's `success_redirect_url`; a client whose `Accept` prefers JSON gets the " +
      'IngestResult instead. A filled `_hp` stores the submission as spam and answers exactly ' +
      'like success. Errors are an HTML page for browsers and JSON otherwise; a malformed ' +
      'form body is 400 `validation_failed`.',
    access: 'public',
    ingest: true,
    body: { schema: htmlFormSubmission, mediaTypes: FORM_MEDIA_TYPES, required: true },
    answers: [
      {
        status: 302,
        description: 'stored; go to the thank-you page or the success_redirect_url',
        headers: { Location: 'the thank-you page or success_redirect_url' },
      },
      {
        status: 200,
        description: 'stored (when `Accept` prefers application/json)',
        body: res.ingestResultSchema,
      },
    ],
    errors: [
      'validation_failed',
      'domain_not_allowed',
      'not_found',
      'not_active',
      'payload_too_large',
      'unsupported_media_type',
      'rate_limited',
    ],
    htmlErrors: true,
  },
  {
    method: 'options',
    path: '/f/{endpoint_token}',
    id: 'preflightForm',
    tag: 'Ingest',
    summary: 'CORS preflight for posting a form from a script',
    access: 'public',
    ingest: true,
    answers: [{ status: 204, description: 'the CORS headers for this origin' }],
    errors: [],
  },
  {
    method: 'get',
    path: '/f/{endpoint_token}/thanks',
    id: 'thanksPage',
    tag: 'Ingest',
    summary: 'The default thank-you page',
    access: 'public',
    ingest: true,
    answers: [{ status: 200, description: 'the page', body: html('thank-you page') }],
    errors: ['not_found'],
  },
  {
    method: 'get',
    path: '/f/{endpoint_token}/autocomplete.js',
    id: 'autocompleteScript',
    tag: 'Ingest',
    summary: "The form's helper script",
    access: 'public',
    ingest: true,
    answers: [
      {
        status: 200,
        description: 'JavaScript, cacheable for 5 minutes',
        body: { mediaType: 'application/javascript', schema: { type: 'string' } },
      },
    ],
    errors: ['not_found'],
  },
  {
    method: 'post',
    path: '/json/{endpoint_token}',
    id: 'submitJson',
    tag: 'Ingest',
    summary: 'Post a submission as JSON',
    description:
      'One JSON object of fields (an array or scalar is refused with 422). With `?test=true` ' +
      "the form's plugin deliveries run once, synchronously, and `deliveries` reports each.",
    access: 'public',
    ingest: true,
    query: ingestQuery,
    body: { schema: jsonSubmissionBody, mediaTypes: ['application/json'], required: true },
    answers: [{ status: 200, description: 'stored', body: res.ingestResultSchema }],
    errors: [
      'invalid_json',
      'validation_failed',
      'domain_not_allowed',
      'not_found',
      'not_active',
      'payload_too_large',
      'unsupported_media_type',
      'rate_limited',
    ],
  },
  {
    method: 'options',
    path: '/json/{endpoint_token}',
    id: 'preflightJson',
    tag: 'Ingest',
    summary: 'CORS preflight for posting JSON from a script',
    access: 'public',
    ingest: true,
    answers: [{ status: 204, description: 'the CORS headers for this origin' }],
    errors: [],
  },

  apiRoot('/api', 'getApiRoot'),
  apiRoot('/api/', 'getApiRootTrailingSlash'),

  {
    method: 'get',
    path: '/api/forms',
    id: 'listForms',
    tag: 'Forms',
    summary: 'List forms',
    description: `The account's forms, newest first, one page at a time (at most ${MAX_PER_PAGE} a page).`,
    access: 'any',
    query: paginationQuery,
    answers: [
      {
        status: 200,
        description: 'the forms',
        body: res.formListEnvelope,
        headers: LIST_HEADERS,
      },
    ],
    errors: [],
  },
  {
    method: 'post',
    path: '/api/forms',
    id: 'createForm',
    tag: 'Forms',
    summary: 'Create a form',
    description:
      'Only `name` is required. The answer includes the endpoint_token, the ingest URLs and ' +
      'ready-to-paste `embed_html`.',
    access: 'can_create_forms',
    body: { schema: createFormBody, mediaTypes: ['application/json'], required: true },
    answers: [
      {
        status: 201,
        description: 'created',
        body: res.formEnvelope,
        headers: { Location: 'the new form' },
      },
    ],
    errors: [],
  },
  {
    method: 'get',
    path: '/api/forms/{id}',
    id: 'getForm',
    tag: 'Forms',
    summary: 'Read a form',
    access: 'any',
    answers: [{ status: 200, description: 'the form', body: res.formEnvelope }],
    errors: ['not_found'],
  },
  {
    method: 'patch',
    path: '/api/forms/{id}',
    id: 'updateForm',
    tag: 'Forms',
    summary: 'Update a form',
    description:
      'Send any of the fields; the others stay. `is_active: false` makes ingest answer ' +
      '404 `not_active` until it is set back to true.',
    access: 'can_create_forms',
    body: { schema: updateFormBody, mediaTypes: ['application/json'], required: true },
    answers: [{ status: 200, description: 'the updated form', body: res.formEnvelope }],
    errors: ['not_found'],
  },

  submissionList(false),
  submissionList(true),
  {
    method: 'get',
    path: '/api/submissions/{id}',
    id: 'getSubmission',
    tag: 'Submissions',
    summary: 'Read a submission',
    description:
      'The full submission. A spam submission is 404 to keys without ' +
      '`can_read_spam_submissions`.',
    access: 'can_read_submissions',
    answers: [{ status: 200, description: 'the submission', body: res.submissionEnvelope }],
    errors: ['not_found'],
  },
  deliveryLog(
    '/api/submissions/{id}/deliveries',
    'listSubmissionDeliveries',
    "A submission's delivery log",
    'Every delivery attempt of the submission to its plugins, newest first: status, HTTP ' +
      'status, error, duration and the answer cut at 4 KB.',
  ),
  {
    method: 'post',
    path: '/api/submissions/{id}/replay',
    id: 'replaySubmission',
    tag: 'Deliveries',
    summary: 'Deliver a submission again',
    description:
      'Starts a new workflow that delivers the submission to every enabled plugin of its form ' +
      'again, with the same retry policy; its attempts are recorded with `is_replay`. Spam ' +
      'submissions are not delivered and cannot be replayed.',
    access: 'can_create_forms',
    answers: [{ status: 202, description: 'the replay started', body: res.replayEnvelope }],
    errors: ['not_found', 'validation_failed', 'unavailable'],
  },
  {
    method: 'get',
    path: '/api/submissions/{id}/files/{file_id}',
    id: 'downloadSubmissionFile',
    tag: 'Submissions',
    summary: 'Download an uploaded file',
    description: 'The bytes as uploaded, as an attachment with the original file name.',
    access: 'can_read_submissions',
    answers: [
      {
        status: 200,
        description: 'the file',
        body: { mediaType: '*/*', schema: { type: 'string', contentMediaType: '*/*' } },
        headers: { 'Content-Disposition': 'attachment; filename="…"' },
      },
    ],
    errors: ['not_found'],
  },

  {
    method: 'get',
    path: '/api/forms/{form_id}/plugins',
    id: 'listPlugins',
    tag: 'Plugins',
    summary: "List a form's plugins",
    description: 'Oldest first, one page at a time. Signing secrets are never included.',
    access: 'any',
    query: paginationQuery,
    answers: [
      {
        status: 200,
        description: 'the plugins',
        body: res.pluginListEnvelope,
        headers: LIST_HEADERS,
      },
    ],
    errors: ['not_found'],
  },
  {
    method: 'post',
    path: '/api/forms/{form_id}/plugins',
    id: 'createPlugin',
    tag: 'Plugins',
    summary: 'Create a webhook',
    description:
      'Only `plugin_type: "webhook"` is accepted. `config.url` must be https:// and resolve ' +
      'to public addresses only. The answer carries the `signing_secret`, shown this once.',
    access: 'can_create_forms',
    body: { schema: createPluginBody, mediaTypes: ['application/json'], required: true },
    answers: [
      {
        status: 201,
        description: 'created, with its signing_secret',
        body: res.pluginEnvelope,
        headers: { Location: 'the new plugin' },
      },
    ],
    errors: ['not_found', 'invalid_config', 'unsupported_plugin'],
  },
  {
    method: 'get',
    path: '/api/forms/{form_id}/plugins/{id}',
    id: 'getPlugin',
    tag: 'Plugins',
    summary: 'Read a plugin',
    access: 'any',
    answers: [{ status: 200, description: 'the plugin', body: res.pluginEnvelope }],
    errors: ['not_found'],
  },
  {
    method: 'delete',
    path: '/api/forms/{form_id}/plugins/{id}',
    id: 'deletePlugin',
    tag: 'Plugins',
    summary: 'Delete a plugin',
    description: 'Its delivery records are kept.',
    access: 'can_create_forms',
    answers: [{ status: 200, description: 'plugin removed', body: res.pluginDeletedSchema }],
    errors: ['not_found'],
  },
  deliveryLog(
    '/api/forms/{form_id}/plugins/{id}/deliveries',
    'listPluginDeliveries',
    "A plugin's delivery log",
    'Every delivery attempt to this plugin, newest first.',
  ),
  {
    method: 'post',
    path: '/api/forms/{form_id}/plugins/{id}/rotate_secret',
    id: 'rotatePluginSecret',
    tag: 'Plugins',
    summary: "Rotate a webhook's signing secret",
    description:
      'The old secret stops at once: every later attempt, retries of older submissions ' +
      'included, signs with the new one, returned here once.',
    access: 'can_create_forms',
    answers: [
      {
        status: 200,
        description: 'the plugin with its new signing_secret',
        body: res.pluginEnvelope,
      },
    ],
    errors: ['not_found', 'unsupported_plugin'],
  },

  {
    method: 'get',
    path: '/api/stats',
    id: 'getAccountStats',
    tag: 'Stats',
    summary: 'Account stats',
    description: 'Form counts and non-spam submissions of the last 24 hours and 7 days.',
    access: 'session',
    answers: [{ status: 200, description: 'the stats', body: res.accountStatsEnvelope }],
    errors: [],
  },
  {
    method: 'get',
    path: '/api/form_stats/{form_id}',
    id: 'getFormStats',
    tag: 'Stats',
    summary: 'Stats of one form',
    description: 'Totals, recent counts and a 30-day daily series (UTC days).',
    access: 'any',
    answers: [{ status: 200, description: 'the stats', body: res.formStatsEnvelope }],
    errors: ['not_found'],
  },

  {
    method: 'get',
    path: '/api/public/spam_metrics',
    id: 'getSpamMetrics',
    tag: 'Public',
    summary: 'Platform spam metrics',
    description: 'Aggregates over every account; nothing identifies an account. Cached 60 s.',
    access: 'public',
    answers: [{ status: 200, description: 'the metrics', body: res.spamMetricsSchema }],
    errors: [],
  },
  {
    method: 'get',
    path: '/api/public/verify_domain',
    id: 'verifyDomain',
    tag: 'Public',
    summary: 'Check the DNS of a custom form-page domain',
    description:
      'Looks up the CNAME and TXT records now. `verified: false` is still a 200: the check ' +
      'ran and `missing` says what to add.',
    access: 'public',
    query: verifyDomainQuery,
    answers: [
      { status: 200, description: 'the verification result', body: res.domainVerificationSchema },
    ],
    errors: [],
  },

  {
    method: 'get',
    path: '/',
    id: 'homePage',
    tag: 'Dashboard',
    summary: 'Landing page',
    access: 'public',
    answers: [{ status: 200, description: 'the page', body: html('landing page') }],
    errors: [],
  },
  {
    method: 'get',
    path: '/login',
    id: 'loginPage',
    tag: 'Dashboard',
    summary: 'Sign-in form',
    access: 'public',
    answers: [{ status: 200, description: 'the form', body: html('sign-in form') }],
    errors: [],
  },
  {
    method: 'post',
    path: '/login',
    id: 'signIn',
    tag: 'Dashboard',
    summary: 'Sign in',
    description:
      `Sets the \`${SESSION_COOKIE}\` cookie (HttpOnly, SameSite=Lax, Secure over HTTPS) and ` +
      'redirects to `/`. A wrong password answers 401 and an expired form 403, both as the ' +
      'sign-in page with a message.',
    access: 'public',
    body: {
      schema: loginForm,
      mediaTypes: ['application/x-www-form-urlencoded'],
      required: true,
    },
    answers: [
      {
        status: 303,
        description: 'signed in',
        headers: { Location: '/', 'Set-Cookie': `${SESSION_COOKIE}=…` },
      },
      { status: 401, description: 'wrong e-mail or password', body: html('sign-in form') },
      { status: 403, description: 'the sign-in form expired', body: html('sign-in form') },
    ],
    errors: [],
  },
  {
    method: 'post',
    path: '/logout',
    id: 'signOut',
    tag: 'Dashboard',
    summary: 'Sign out',
    description:
      'Ends the session. Needs the session CSRF token (field `_csrf` or header ' +
      '`X-CSRF-Token`) or a same-origin `Origin`.',
    access: 'public',
    body: {
      schema: logoutForm,
      mediaTypes: ['application/x-www-form-urlencoded'],
      required: false,
    },
    answers: [
      { status: 303, description: 'signed out', headers: { Location: '/login' } },
      {
        status: 200,
        description: 'signed out (when `Accept` prefers JSON)',
        body: res.signedOutSchema,
      },
    ],
    errors: ['forbidden'],
  },

  {
    method: 'get',
    path: '/docs',
    id: 'getDocsPage',
    tag: 'Documentation',
    summary: 'This API reference',
    access: 'public',
    answers: [{ status: 200, description: 'the reference', body: html('API reference') }],
    errors: [],
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    id: 'getOpenApiDocument',
    tag: 'Documentation',
    summary: 'The OpenAPI 3.1 document',
    access: 'public',
    answers: [
      {
        status: 200,
        description: 'the document',
        body: { mediaType: 'application/json', schema: { type: 'object' } },
      },
    ],
    errors: [],
  },

  {
    method: 'get',
    path: '/healthz',
    id: 'liveness',
    tag: 'Health',
    summary: 'Liveness',
    description: 'The process answers.',
    access: 'public',
    answers: [{ status: 200, description: 'alive', body: res.healthSchema }],
    errors: [],
  },
  {
    method: 'get',
    path: '/readyz',
    id: 'readiness',
    tag: 'Health',
    summary: 'Readiness',
    description: 'PostgreSQL and Temporal are reachable.',
    access: 'public',
    answers: [
      { status: 200, description: 'ready', body: res.readinessSchema },
      { status: 503, description: 'not ready; `checks` says why', body: res.readinessSchema },
    ],
    errors: [],
  },
];

// ---------------------------------------------------------------------------------------------
// The document

const INTRO =
  'Formward is a self-hostable form backend: HTML forms and JSON clients post to the ingest ' +
  'endpoints, submissions are stored and spam-filtered, then delivered to the form’s plugins ' +
  '(signed webhooks). The unversioned `/api` paths are the stable v1 surface: additive changes ' +
  'may appear at any time and clients must ignore unknown fields; a breaking change would ' +
  'come under `/api/v2`.';

function securitySchemes(): Record<string, Json> {
  const roles = Object.entries(ROLES)
    .map(([role, scopes]) => `${role}: ${scopes.join(', ')}`)
    .join('; ');
  return {
    apiKey: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'frk_…',
      description:
        `\`Authorization: Bearer frk_…\`. Keys carry scopes (${SCOPES.join(', ')}); ` +
        `dashboard roles are presets (${roles}).`,
    },
    session: {
      type: 'apiKey',
      in: 'cookie',
      name: SESSION_COOKIE,
      description:
        'The dashboard session from `POST /login`; it has every scope. Changes need the ' +
        '`X-CSRF-Token` header or a same-origin `Origin`.',
    },
  };
}

function build(urls: Urls): OpenApiDocument {
  const components: Record<string, Json> = {};
  // Named first so that operations referring to them find them listed in a stable order.
  for (const schema of [res.linkSchema, res.errorSchema])
    toJsonSchema(schema, 'output', components);
  const paths: OpenApiDocument['paths'] = {};
  for (const op of OPERATIONS) {
    paths[op.path] ??= {};
    paths[op.path]![op.method] = toOperation(op, urls, components);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Formward API',
      version: '1.0.0',
      summary: 'Form ingest, form management, submissions, webhooks and stats.',
      description: INTRO,
    },
    externalDocs: { description: 'HTML reference', url: `${urls.base}/docs` },
    servers: [{ url: urls.base, description: 'API' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: { schemas: components, securitySchemes: securitySchemes() },
  };
}

const cache = new Map<string, OpenApiDocument>();

/** Built once per (base, ingest) pair: the URLs are only known once the port is bound. */
export function buildOpenApiDocument(urls: Urls): OpenApiDocument {
  const key = `${urls.base}\n${urls.ingest}`;
  let document = cache.get(key);
  if (!document) {
    document = build(urls);
    cache.set(key, document);
  }
  return document;
}
