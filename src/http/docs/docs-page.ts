import escapeHtml from 'escape-html';
import { SESSION_COOKIE } from '../kit/session/cookies';
import type { OpenApiDocument } from '../kit/openapi/openapi-document';
import { markdown, type ApiGuide } from './api-guide';

/*
 * The HTML reference at /docs, rendered on the server from the OpenAPI document: no scripts,
 * no CDN (self-hosted installs are often offline), every text escaped.
 */

type Schema = Record<string, unknown>;
type Operation = Schema & { operationId: string; tags: string[]; summary: string };

const METHODS = ['get', 'post', 'patch', 'delete', 'options'] as const;
const REF = '#/components/schemas/';

/** Short texts and descriptions are Markdown (raw HTML off, so escaped). */
const text = (value: unknown) => markdown.renderInline(String(value ?? ''));
const paragraphs = (value: unknown) => markdown.render(String(value ?? ''));
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

/** The whole reference page: the guide, then every operation and schema of the document. */
export function docsPage(document: OpenApiDocument, guide: ApiGuide): string {
  const components = document.components.schemas as Record<string, Schema>;
  const groups = operationsByTag(document);
  const descriptions = new Map(document.tags.map((t) => [t.name, t.description]));

  const nav = `<nav aria-label="Contents"><strong>${escapeHtml(String(document.info.title))}</strong>
<ul>${guide.sections.map((g) => `<li><a href="#${g.id}">${g.title}</a></li>`).join('')}</ul>
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
${guide.sections.map((g) => `<section id="${g.id}">${g.html}</section>`).join('\n')}
${endpoints}
<section id="schemas"><h2>Schemas</h2>${schemas}</section>
</main></div></body>
</html>`;
}
