import { ROLES, SCOPES, type Scope } from '../../domain/accounts/scopes';
import { embedHtml } from '../../domain/forms/embed-html';
import { formExamples } from '../../domain/forms/examples';
import { escapeHtml } from '../../domain/forms/html-escape';
import { INGEST_LIMITS } from '../../domain/submissions/limits';
import { SESSION_COOKIE } from '../cookies';
import type { OpenApiDocument } from '../openapi/openapi-document';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../pagination';
import { ERROR_CODES } from '../schemas/responses';

/*
 * The HTML reference at /docs, rendered on the server from the OpenAPI document: no scripts,
 * no CDN (self-hosted installs are often offline), every text escaped.
 */

type Schema = Record<string, unknown>;
type Operation = Schema & { operationId: string; tags: string[]; summary: string };

const METHODS = ['get', 'post', 'patch', 'delete', 'options'] as const;
const REF = '#/components/schemas/';

/** Escapes, then turns `backticks` into <code>. */
const text = (value: unknown) =>
  escapeHtml(String(value ?? '')).replace(/`([^`]+)`/g, '<code>$1</code>');
const paragraphs = (value: unknown) =>
  String(value ?? '')
    .split(/\n\n+/)
    .filter(Boolean)
    .map((p) => `<p>${text(p)}</p>`)
    .join('\n');
const codeBlock = (code: string) => `<pre><code>${escapeHtml(code)}</code></pre>`;
const table = (head: string[], rows: string[][]) =>
  `<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>` +
  rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('') +
  '</tbody></table>';

const refOf = (schema: Schema) =>
  typeof schema.$ref === 'string' && schema.$ref.startsWith(REF)
    ? schema.$ref.slice(REF.length)
    : null;
const schemaLink = (name: string) =>
  `<a href="#schema-${escapeHtml(name)}">${escapeHtml(name)}</a>`;
const asSchemas = (value: unknown) => (Array.isArray(value) ? (value as Schema[]) : null);

// ---------------------------------------------------------------------------------------------
// JSON Schema as readable types and field tables

function typeLabel(schema: Schema): string {
  const ref = refOf(schema);
  if (ref) return schemaLink(ref);
  const union = asSchemas(schema.anyOf) ?? asSchemas(schema.oneOf);
  if (union) return union.map(typeLabel).join(' | ');
  const all = asSchemas(schema.allOf);
  if (all) return typeLabel(all[0]!);
  if ('const' in schema) return `<code>${escapeHtml(JSON.stringify(schema.const))}</code>`;
  if (Array.isArray(schema.enum))
    return schema.enum.map((v) => `<code>${escapeHtml(String(v))}</code>`).join(' | ');
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return 'any';
  return types
    .map((type) => {
      if (type === 'array') return `array of ${typeLabel((schema.items ?? {}) as Schema)}`;
      const values = schema.additionalProperties;
      if (type === 'object' && !schema.properties && values && typeof values === 'object')
        return `object of ${typeLabel(values as Schema)}`;
      if (type === 'string' && schema.format)
        return `string (${escapeHtml(String(schema.format))})`;
      return escapeHtml(String(type));
    })
    .join(' | ');
}

function constraints(schema: Schema): string[] {
  const notes: string[] = [];
  const { minLength, maxLength, minimum, maximum, maxItems, pattern, format } = schema;
  if (minLength !== undefined || maxLength !== undefined)
    notes.push(`${minLength ?? 0}–${maxLength ?? '∞'} characters`);
  if (minimum !== undefined) notes.push(`≥ ${minimum}`);
  if (maximum !== undefined) notes.push(`≤ ${maximum}`);
  if (maxItems !== undefined) notes.push(`at most ${maxItems} items`);
  if (pattern !== undefined && format === undefined) notes.push(`pattern \`${pattern}\``);
  if (schema.default !== undefined) notes.push(`default \`${JSON.stringify(schema.default)}\``);
  for (const member of asSchemas(schema.anyOf) ?? []) notes.push(...constraints(member));
  return notes;
}

/** A nullable field's description sits on its non-null member. */
const descriptionOf = (schema: Schema): unknown =>
  schema.description ?? asSchemas(schema.anyOf)?.find((m) => m.description)?.description;

const describe = (schema: Schema) =>
  [text(descriptionOf(schema)), ...constraints(schema).map(text)].filter(Boolean).join('; ');

/** The object a field holds inline (not by reference), for nested rows. */
function inlineObject(schema: Schema): { schema: Schema; suffix: string } | null {
  if (schema.properties && !refOf(schema)) return { schema, suffix: '.' };
  const items = schema.items as Schema | undefined;
  if (items?.properties && !refOf(items)) return { schema: items, suffix: '[].' };
  const member = asSchemas(schema.anyOf)?.find((m) => m.properties && !refOf(m));
  return member ? { schema: member, suffix: '.' } : null;
}

function fieldRows(object: Schema, prefix = '', depth = 0): string[][] {
  const required = new Set((object.required ?? []) as string[]);
  const properties = (object.properties ?? {}) as Record<string, Schema>;
  const rows: string[][] = [];
  for (const [name, property] of Object.entries(properties)) {
    rows.push([
      `<code>${escapeHtml(prefix + name)}</code>`,
      typeLabel(property),
      required.has(name) ? 'yes' : 'no',
      describe(property),
    ]);
    const nested = inlineObject(property);
    if (nested && depth < 3)
      rows.push(...fieldRows(nested.schema, `${prefix}${name}${nested.suffix}`, depth + 1));
  }
  const others = object.additionalProperties;
  if (others !== undefined && others !== false) {
    const label = typeof others === 'object' ? typeLabel(others as Schema) : 'any';
    rows.push([`<em>any other name</em>`, label, 'no', '']);
  }
  return rows;
}

const FIELD_HEAD = ['Field', 'Type', 'Required', 'Description'];

function schemaFields(schema: Schema, components: Record<string, Schema>): string {
  const ref = refOf(schema);
  const target = ref ? components[ref] : schema;
  if (!target) return '';
  const rows = fieldRows(target);
  const named = ref ? `<p>Schema ${schemaLink(ref)}. ${text(target.description)}</p>` : '';
  return rows.length > 0 ? named + table(FIELD_HEAD, rows) : named;
}

// ---------------------------------------------------------------------------------------------
// Operations

/** How to authenticate; the scope and the rest are in the description. */
function accessLine(operation: Operation): string {
  const security = (operation.security ?? []) as Record<string, unknown>[];
  if (security.length === 0) return '';
  const ways = security.map((s) =>
    Object.keys(s)[0] === 'session'
      ? `session cookie <code>${SESSION_COOKIE}</code>`
      : 'bearer key <code>frk_…</code>',
  );
  return `<p class="auth">Credentials: ${ways.join(' or ')}.</p>`;
}

function parametersSection(operation: Operation): string {
  const parameters = (operation.parameters ?? []) as Schema[];
  if (parameters.length === 0) return '';
  const rows = parameters.map((p) => [
    `<code>${escapeHtml(String(p.name))}</code>`,
    escapeHtml(String(p.in)),
    typeLabel((p.schema ?? {}) as Schema),
    p.required ? 'yes' : 'no',
    [text(p.description), ...constraints((p.schema ?? {}) as Schema).map(text)]
      .filter(Boolean)
      .join('; '),
  ]);
  return `<h4>Parameters</h4>${table(['Name', 'In', 'Type', 'Required', 'Description'], rows)}`;
}

function bodySection(operation: Operation, components: Record<string, Schema>): string {
  const body = operation.requestBody as Schema | undefined;
  if (!body) return '';
  const content = body.content as Record<string, { schema: Schema }>;
  const types = Object.keys(content)
    .map((t) => `<code>${escapeHtml(t)}</code>`)
    .join(' or ');
  const first = Object.values(content)[0]!;
  return (
    `<h4>Request body${body.required ? '' : ' (optional)'}</h4><p>${types}</p>` +
    schemaFields(first.schema, components)
  );
}

function responseBody(response: Schema): string {
  const content = (response.content ?? {}) as Record<string, { schema?: Schema }>;
  const parts = Object.entries(content).map(([type, { schema }]) => {
    const label = schema && Object.keys(schema).length > 0 ? typeLabel(schema) : 'bytes';
    return `${label} <small>(${escapeHtml(type)})</small>`;
  });
  const headers = Object.keys((response.headers ?? {}) as Schema);
  if (headers.length > 0)
    parts.push(`headers: ${headers.map((h) => `<code>${escapeHtml(h)}</code>`).join(', ')}`);
  return parts.join('<br>') || '—';
}

function responsesSection(operation: Operation): string {
  const responses = (operation.responses ?? {}) as Record<string, Schema>;
  const rows = Object.entries(responses).map(([status, response]) => {
    const codes = (response['x-error-codes'] ?? []) as string[];
    const meaning = codes.length
      ? codes
          .map((c) => `<a href="#error-${escapeHtml(c)}"><code>${escapeHtml(c)}</code></a>`)
          .join(', ')
      : text(response.description);
    return [`<strong>${escapeHtml(status)}</strong>`, meaning, responseBody(response)];
  });
  return `<h4>Responses</h4>${table(['Status', 'Meaning', 'Body'], rows)}`;
}

function operationSection(
  path: string,
  method: string,
  operation: Operation,
  components: Record<string, Schema>,
): string {
  const servers = (operation.servers ?? []) as { url: string }[];
  const server = servers[0]
    ? `<p class="server">Server: <code>${escapeHtml(servers[0].url)}</code></p>`
    : '';
  return `<section class="op" id="op-${escapeHtml(operation.operationId)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code class="path">${escapeHtml(path)}</code></h3>
<p class="summary">${text(operation.summary)}</p>
${server}${accessLine(operation)}
${paragraphs(operation.description)}
${parametersSection(operation)}
${bodySection(operation, components)}
${responsesSection(operation)}
</section>`;
}

type Entry = { path: string; method: string; operation: Operation };

function operationsByTag(document: OpenApiDocument): Map<string, Entry[]> {
  const groups = new Map<string, Entry[]>(document.tags.map((t) => [t.name, []]));
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as Operation | undefined;
      if (!operation) continue;
      const tag = operation.tags[0] ?? 'Other';
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag)!.push({ path, method, operation });
    }
  }
  return groups;
}

const tagId = (tag: string) => `tag-${tag.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

// ---------------------------------------------------------------------------------------------
// The guide sections

const SCOPE_GRANTS: Record<Scope, string> = {
  can_create_forms: 'create and update forms, create and delete plugins, rotate signing secrets',
  can_read_submissions: 'read non-spam submissions and their uploaded files',
  can_read_spam_submissions: 'read spam submissions (the spam list, and spam submissions by id)',
};

function introSection(document: OpenApiDocument, ingest: string): string {
  const base = document.servers[0]?.url ?? '';
  return `<section id="introduction"><h2>Introduction</h2>
${paragraphs(document.info.description)}
${table(
  ['Server', 'URL', 'Serves'],
  [
    [
      'API',
      `<code>${escapeHtml(base)}</code>`,
      'the authenticated API under <code>/api</code>, the public endpoints, this page',
    ],
    [
      'Ingest',
      `<code>${escapeHtml(ingest)}</code>`,
      'form posts: <code>/f/…</code> and <code>/json/…</code>',
    ],
  ],
)}
<p>The machine-readable description is the <a href="${escapeHtml(base)}/api/openapi.json">OpenAPI 3.1 document</a>.</p>
</section>`;
}

function authSection(): string {
  const scopes = SCOPES.map((s) => [`<code>${s}</code>`, text(SCOPE_GRANTS[s])]);
  const roles = Object.entries(ROLES).map(([role, granted]) => [
    escapeHtml(role),
    granted.map((s) => `<code>${s}</code>`).join(', '),
  ]);
  return `<section id="authentication"><h2>Authentication</h2>
<p>The API takes a bearer key: <code>Authorization: Bearer frk_…</code>. Keys start with <code>frk_</code>, are created in the dashboard (or with <code>formward key create</code>) and shown in full once; only a hash is stored. A revoked key answers <code>invalid_api_key</code>.</p>
<h3>Scopes</h3>${table(['Scope', 'Grants'], scopes)}
<p>Reading forms, plugins (never their secrets) and form stats needs any valid key. A spam submission read by id without <code>can_read_spam_submissions</code> is 404, as if it did not exist.</p>
<h3>Roles</h3><p>Dashboard presets for new keys:</p>${table(['Role', 'Scopes'], roles)}
<h3>Sessions</h3>
<p>Signing in at <a href="/login"><code>/login</code></a> sets the <code>${SESSION_COOKIE}</code> cookie (HttpOnly, SameSite=Lax, Secure over HTTPS). A session has every scope and is the only way to read <code>/api/stats</code>. A change (POST, PATCH, DELETE) authenticated by the cookie also needs the session's CSRF token in <code>X-CSRF-Token</code>, or a same-origin <code>Origin</code>. <code>POST /logout</code> ends it.</p>
<h3>Failures</h3>
${table(
  ['Situation', 'Answer'],
  [
    ['no key and no session', '401 <code>unauthorized</code>'],
    ['a key that matches no active key', '401 <code>invalid_api_key</code>'],
    ['a valid key without the scope', '403 <code>forbidden</code>'],
    ['<code>/api/stats</code> with a key', '401 <code>unauthorized</code> (a session is required)'],
  ],
)}
</section>`;
}

function envelopeSection(base: string): string {
  const single = {
    ok: true,
    form: {
      id: '42',
      name: 'Contact',
      '…': '…',
      links: [{ rel: 'self', href: `${base}/api/forms/42` }],
    },
    payload: { '…': 'the same form' },
    links: [
      { rel: 'self', href: `${base}/api/forms/42` },
      { rel: 'update', href: `${base}/api/forms/42`, method: 'PATCH' },
    ],
  };
  const list = {
    ok: true,
    submissions: ['…'],
    payload: ['…the same list'],
    meta: { page: 2, per_page: 50, total: 180, total_pages: 4 },
    links: [
      { rel: 'self', href: `${base}/api/submissions?range=7d&page=2&per_page=50` },
      { rel: 'first', href: '…' },
      { rel: 'last', href: '…' },
      { rel: 'next', href: '…' },
      { rel: 'prev', href: '…' },
    ],
  };
  return `<section id="envelopes"><h2>Envelopes and links</h2>
<p>Success bodies carry both envelope variants at once, so clients written against either work: <code>{ok: true, &lt;key&gt;: X, payload: X, links}</code>, where <code>&lt;key&gt;</code> is <code>form</code>, <code>forms</code>, <code>submission</code>, <code>submissions</code>, <code>plugin</code>, <code>plugins</code> or <code>stats</code> and <code>X</code> is the same value. The API root is <code>{ok, account_id, links}</code>.</p>
${codeBlock(JSON.stringify(single, null, 2))}
<p>Every resource carries its own <code>links</code>: <code>self</code>, related resources, and the actions the caller may use, with <code>method</code> when it is not GET. Clients must ignore fields they do not know; fields may be added at any time.</p>
<h3 id="pagination">Pagination</h3>
<p>Lists carry <code>meta: {page, per_page, total, total_pages}</code> and the links <code>self</code>, <code>first</code>, <code>last</code>, and <code>next</code>/<code>prev</code> where they exist, repeated in an RFC 8288 <code>Link</code> header. <code>page</code> starts at 1; <code>per_page</code> defaults to ${DEFAULT_PER_PAGE} and is clamped to ${MAX_PER_PAGE} (then <code>meta</code> has <code>per_page_clamped</code>, <code>max_per_page</code> and <code>requested_per_page</code>). The submission lists take <code>range</code>: <code>24h</code> (default), <code>7d</code>, <code>30d</code> or <code>all</code>.</p>
${codeBlock(JSON.stringify(list, null, 2))}
</section>`;
}

function errorsSection(base: string): string {
  const example = {
    ok: false,
    error: 'validation_failed',
    message: 'the request failed validation',
    errors: ['name: must not be empty'],
    links: [{ rel: 'docs', href: `${base}/docs#errors` }],
  };
  const rows = Object.entries(ERROR_CODES)
    .sort(([, a], [, b]) => a.status - b.status)
    .map(([code, { status, when }]) => [
      `<code id="error-${code}">${code}</code>`,
      String(status),
      text(when),
    ]);
  return `<section id="errors"><h2>Errors</h2>
<p>Every 4xx and 5xx answer is JSON with <code>ok: false</code>, a machine-readable <code>error</code>, a human <code>message</code>, <code>errors</code> for validation lists and a <code>docs</code> link. The exception: <code>/f/…</code> answered to a browser (its <code>Accept</code> prefers HTML) gets an HTML page with the same status. A 405 comes with <code>Allow</code>, a 429 with <code>Retry-After</code>. New codes may be added; treat an unknown code by its status.</p>
${codeBlock(JSON.stringify(example, null, 2))}
${table(['error', 'Status', 'When'], rows)}
</section>`;
}

const kib = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MiB` : `${bytes / 1024} KiB`;

function ingestSection(ingest: string): string {
  const token = 'YOUR_ENDPOINT_TOKEN';
  const urls = { submissionUrl: `${ingest}/f/${token}`, jsonUrl: `${ingest}/json/${token}` };
  const formHtml = embedHtml({ name: 'Contact', token, submissionUrl: urls.submissionUrl });
  const examples = formExamples(urls, formHtml);
  const limits = [
    ['JSON or urlencoded body', kib(INGEST_LIMITS.jsonBodyBytes)],
    ['multipart body', kib(INGEST_LIMITS.multipartBodyBytes)],
    ['one file', kib(INGEST_LIMITS.fileBytes)],
    ['files a submission', String(INGEST_LIMITS.files)],
    ['fields a submission', String(INGEST_LIMITS.fields)],
    ['field name', `${INGEST_LIMITS.fieldNameChars} characters`],
    ['one value', kib(INGEST_LIMITS.fieldValueBytes)],
  ];
  return `<section id="ingest"><h2>Posting submissions (ingest)</h2>
<p>Ingest needs no authentication. Each form has an <code>endpoint_token</code>; post to <code>${escapeHtml(ingest)}/f/{endpoint_token}</code> from an HTML form (<code>application/x-www-form-urlencoded</code> or <code>multipart/form-data</code>) or to <code>${escapeHtml(ingest)}/json/{endpoint_token}</code> with one JSON object. A form's <code>submission_url</code>, <code>json_url</code> and <code>embed_html</code> hold these ready-made.</p>
<h3>HTML forms</h3>
${codeBlock(formHtml)}
<p>After a successful post the browser is redirected (302) to <code>${escapeHtml(ingest)}/f/{endpoint_token}/thanks</code>, or to the form's <code>success_redirect_url</code> when set. A client whose <code>Accept</code> prefers JSON gets the IngestResult instead of the redirect. Errors are an HTML page for browsers and JSON for everyone else. Repeated field names become arrays; values are strings. Multipart file parts are stored and appear in <code>payload_json</code> as <code>{filename, content_type, size, url}</code>; the <code>url</code> downloads the file with a key that has <code>can_read_submissions</code>.</p>
<h3>JSON</h3>
${codeBlock(examples.curl)}
${codeBlock(examples.fetch)}
<p>The answer is <code>{ok: true, id, links}</code> with links to the <code>submission</code> and the <code>form</code>. JSON values keep their types; an array or scalar body is refused with 422. With <code>?test=true</code> (the only allowed value) the form's plugin deliveries run once, synchronously, and <code>deliveries</code> lists <code>{plugin_id, plugin_type, ok, status_code, error, duration_ms}</code>; no retries follow.</p>
<h3>Special fields</h3>
<ul>
<li><code>_hp</code> is the honeypot: render it hidden and empty. When it is filled the submission is stored as spam, nothing is delivered, and the answer looks exactly like success. It is never stored in <code>payload_json</code>.</li>
<li><code>_ts</code> is the page-load time (ms since the epoch) that the embed markup fills in. A form sent less than 3 seconds after it loaded is spam (<code>too_fast</code>). It is never stored in <code>payload_json</code>; empty or missing means unknown.</li>
<li><code>email</code>, when present, must be a valid address (else 422 <code>validation_failed</code>).</li>
<li><code>special_normalized</code> holds the trimmed <code>name</code> and <code>message</code> and the trimmed, lower-cased <code>email</code>; null when none came.</li>
</ul>
<h3>CORS and allowed domains</h3>
<p>Both endpoints answer the preflight <code>OPTIONS</code> and set <code>Access-Control-Allow-Origin</code> to the request's origin on every answer, errors included, so a page's script can read why a post failed (<code>Location</code> and <code>Retry-After</code> are exposed).</p>
<p>A form's <code>allowed_domains</code> restricts where posts may come from. Empty: any origin. Otherwise the host of <code>Origin</code> (or, lacking it, <code>Referer</code>) must equal a listed domain or be a subdomain of one, else 403 <code>domain_not_allowed</code>; a post with neither header is refused too.</p>
<h3>Refusals and limits</h3>
<p>An unknown token is 404 <code>not_found</code>; a form with <code>is_active: false</code> answers 404 <code>not_active</code>. Posts are rate-limited per address and form: 429 <code>rate_limited</code> with <code>Retry-After</code>. A body over a limit is 413 <code>payload_too_large</code>; another body type is 415.</p>
${table(['Limit', 'Value'], limits)}
<p>The answer comes once the submission is committed. Spam checks and deliveries then run in the background, one durable workflow per submission.</p>
</section>`;
}

function webhooksSection(): string {
  const verify = `const crypto = require('node:crypto');
// rawBody: the exact bytes received; secret: the full whsec_… string
const expected = crypto.createHmac('sha256', secret).update(rawBody).digest('hex');
const given = Buffer.from(req.headers['x-service-signature'] ?? '', 'utf8');
const ok = given.length === expected.length && crypto.timingSafeEqual(given, Buffer.from(expected));`;
  return `<section id="webhooks"><h2>Webhooks</h2>
<p>Each new non-spam submission is POSTed as JSON to every enabled webhook of its form: <code>{id, created_at, form_id, form_name, ip, user_agent, referrer, data}</code> (<code>form_id</code> is the endpoint token, <code>data</code> the submitted fields). <code>X-Service-Signature</code> is the hex HMAC-SHA256 of the raw body keyed with the full signing secret (<code>whsec_</code> prefix included); the Standard Webhooks headers (<code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>) come too. Compare in constant time:</p>
${codeBlock(verify)}
<p>A delivery fails on a non-2xx answer (redirects are not followed), a timeout (connect 3 s, read 5 s) or a network error, and is retried up to 3 times with exponential backoff. The receiver's answer is stored, truncated at 4 KB. Webhook URLs must be https:// and public: loopback, private, link-local, CGNAT, unique-local and other reserved addresses and <code>localhost</code> are refused (422 <code>invalid_config</code>), at creation and again when connecting. Rotating the secret invalidates the old one at once.</p>
</section>`;
}

// ---------------------------------------------------------------------------------------------
// The page

const STYLE = `
*{box-sizing:border-box}body{margin:0;font-family:system-ui,sans-serif;line-height:1.5;color:#1d2330;background:#fff}
.layout{display:flex;max-width:80rem;margin:0 auto}nav{width:17rem;flex:none;padding:1.5rem 1rem;position:sticky;top:0;align-self:flex-start;max-height:100vh;overflow:auto;font-size:.9rem;border-right:1px solid #e3e5ea}
nav ul{list-style:none;padding-left:.75rem;margin:.25rem 0}nav a{color:#1d2330;text-decoration:none}nav li{margin:.1rem 0}.verb{display:inline-block;min-width:3.6rem;font-size:.7rem;color:#57606a;font-family:ui-monospace,monospace}nav a:hover{text-decoration:underline}
main{flex:1;min-width:0;padding:1.5rem 2rem 4rem}h1{margin-top:0}h2{border-bottom:2px solid #e3e5ea;padding-bottom:.25rem;margin-top:2.5rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em;background:#f2f3f6;padding:0 .25rem;border-radius:3px}
pre{background:#f2f3f6;padding:.75rem 1rem;overflow:auto;border-radius:4px;white-space:pre-wrap;overflow-wrap:anywhere}pre code{padding:0;background:none}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem;font-size:.92rem}th,td{border:1px solid #e3e5ea;padding:.35rem .5rem;text-align:left;vertical-align:top}th{background:#f7f8fa}
.op{border:1px solid #e3e5ea;border-radius:6px;padding:0 1rem .5rem;margin:1.25rem 0}.op h3{margin:.9rem 0 .25rem}
.method{display:inline-block;min-width:4.5rem;text-align:center;font-size:.8rem;padding:.1rem .4rem;border-radius:3px;color:#fff;background:#555;vertical-align:middle}
.get{background:#1f6feb}.post{background:#1a7f37}.patch{background:#9a6700}.delete{background:#cf222e}.options{background:#6e7781}
.summary{margin:.25rem 0;font-weight:600}.auth,.server{margin:.25rem 0;color:#57606a;font-size:.92rem}
@media (max-width:50rem){.layout{display:block}nav{position:static;width:auto;max-height:none;border-right:0}}
`;

function ingestUrlOf(document: OpenApiDocument): string {
  for (const item of Object.values(document.paths))
    for (const operation of Object.values(item)) {
      const servers = (operation?.servers ?? []) as { url: string }[];
      if (servers[0]) return servers[0].url;
    }
  return document.servers[0]?.url ?? '';
}

/** The whole reference page; the document is the single source of every operation listed. */
export function docsPage(document: OpenApiDocument): string {
  const base = document.servers[0]?.url ?? '';
  const ingest = ingestUrlOf(document);
  const components = document.components.schemas as Record<string, Schema>;
  const groups = operationsByTag(document);
  const descriptions = new Map(document.tags.map((t) => [t.name, t.description]));

  const guide: [string, string][] = [
    ['introduction', 'Introduction'],
    ['authentication', 'Authentication'],
    ['envelopes', 'Envelopes and links'],
    ['errors', 'Errors'],
    ['ingest', 'Posting submissions'],
    ['webhooks', 'Webhooks'],
  ];
  const nav = `<nav aria-label="Contents"><strong>${escapeHtml(String(document.info.title))}</strong>
<ul>${guide.map(([id, title]) => `<li><a href="#${id}">${title}</a></li>`).join('')}</ul>
<strong>Endpoints</strong><ul>${[...groups]
    .filter(([, entries]) => entries.length > 0)
    .map(
      ([tag, entries]) =>
        `<li><a href="#${tagId(tag)}">${escapeHtml(tag)}</a><ul>${entries
          .map(
            (e) =>
              `<li><a href="#op-${escapeHtml(e.operation.operationId)}"><span class="verb">${e.method.toUpperCase()}</span> ${text(e.operation.summary)}</a></li>`,
          )
          .join('')}</ul></li>`,
    )
    .join('')}</ul>
<strong><a href="#schemas">Schemas</a></strong></nav>`;

  const endpoints = [...groups]
    .filter(([, entries]) => entries.length > 0)
    .map(
      ([tag, entries]) =>
        `<section id="${tagId(tag)}"><h2>${escapeHtml(tag)}</h2>${paragraphs(descriptions.get(tag))}
${entries.map((e) => operationSection(e.path, e.method, e.operation, components)).join('\n')}</section>`,
    )
    .join('\n');

  const schemas = Object.entries(components)
    .map(
      ([name, schema]) =>
        `<section id="schema-${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3>${paragraphs(schema.description)}${
          schema.properties
            ? table(FIELD_HEAD, fieldRows(schema))
            : `<p>Type: ${typeLabel(schema)}</p>`
        }</section>`,
    )
    .join('\n');

  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(String(document.info.title))} reference · Formward</title>
<style>${STYLE}</style></head>
<body><div class="layout">${nav}
<main>
<h1>${escapeHtml(String(document.info.title))} <small>${escapeHtml(String(document.info.version))}</small></h1>
${introSection(document, ingest)}
${authSection()}
${envelopeSection(base)}
${errorsSection(base)}
${ingestSection(ingest)}
${webhooksSection()}
${endpoints}
<section id="schemas"><h2>Schemas</h2>${schemas}</section>
</main></div></body>
</html>`;
}
