import {
  OpenAPIRegistry,
  OpenApiGeneratorV31,
  type ResponseConfig,
  type RouteConfig,
} from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ROLES, SCOPES, type Scope } from '../../../domain/accounts/scopes';
import { SESSION_COOKIE } from '../session/cookies';
import { errorMeaning, errorSchema } from '../errors/error-codes';
import type { PublicUrls } from '../../../runtime/public-urls';
import { TAGS, type Access, type AnyOperation, type ResponseSpec } from '../routing/define-route';
import { routeErrors, type DeclaredError } from '../routing/route-errors';

/*
 * The OpenAPI 3.1 description of the operations (the route definitions and the documented
 * dashboard pages, OPERATIONS in src/http/routes.ts): their zod schemas become
 * JSON Schema (named ones, `.meta({id})`, as components) through zod-to-openapi, and their
 * access and errors become security, descriptions and error responses.
 */

type Json = Record<string, unknown>;

export type OpenApiDocument = {
  openapi: string;
  info: Json & { title: string; version: string; description?: string };
  servers: { url: string; description?: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> };
} & Json;

const SUMMARY = 'Form ingest, form management, submissions, webhooks and stats.';

const PATH_PARAMETERS: Record<string, string> = {
  id: 'the resource id (for forms also the endpoint_token)',
  form_id: 'a form id or endpoint_token',
  file_id: 'the file id, as in the `url` of the file in `payload_json`',
  endpoint_token: "the form's endpoint_token",
};

function pathParameters(path: string) {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name!);
  if (names.length === 0) return undefined;
  return z.object(
    Object.fromEntries(
      names.map((name) => [name, z.string().describe(PATH_PARAMETERS[name] ?? name)]),
    ),
  );
}

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

const headerDocs = (headers: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(headers).map(([name, description]) => [
      name,
      { description, schema: { type: 'string' as const } },
    ]),
  );

function answerResponse(spec: ResponseSpec): ResponseConfig {
  const headers = { ...spec.headers };
  if ('redirect' in spec) headers.Location ??= 'where to go';
  const response: ResponseConfig = { description: spec.description };
  if (Object.keys(headers).length > 0) response.headers = headerDocs(headers);
  if ('body' in spec) {
    response.content = { 'application/json': { schema: spec.body } };
    // The same answer as a page, for a client whose `Accept` prefers it.
    if (spec.page) response.content[spec.page] = { schema: { type: 'string' } };
  }
  if ('content' in spec) {
    const schema = spec.content === '*/*' ? { contentMediaType: '*/*' } : {};
    response.content = { [spec.content]: { schema: { type: 'string', ...schema } } };
  }
  return response;
}

function errorResponses(route: AnyOperation): Record<string, ResponseConfig> {
  const byStatus = new Map<number, DeclaredError[]>();
  for (const error of routeErrors(route))
    byStatus.set(error.status, [...(byStatus.get(error.status) ?? []), error]);
  const responses: Record<string, ResponseConfig & Json> = {};
  for (const [status, errors] of byStatus) {
    const codes = errors.map((e) => e.code);
    const schema = z.intersection(errorSchema, z.object({ error: z.enum(codes) }));
    responses[String(status)] = {
      description: errors.map((e) => `\`${e.code}\`: ${errorMeaning(e.code, status)}`).join('; '),
      ...(status === 429 ? { headers: headerDocs({ 'Retry-After': 'seconds to wait' }) } : {}),
      content: {
        'application/json': { schema },
        ...(route.htmlErrors
          ? { 'text/html': { schema: { type: 'string', description: 'a page for browsers' } } }
          : {}),
      },
      'x-error-codes': codes,
    };
  }
  return responses;
}

function routeConfig(route: AnyOperation, urls: PublicUrls): RouteConfig {
  const responses: Record<string, ResponseConfig> = {};
  for (const [status, spec] of Object.entries(route.responses))
    responses[status] = answerResponse(spec);
  Object.assign(responses, errorResponses(route));
  const config: RouteConfig = {
    method: route.method,
    path: route.path,
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    description: [route.description, accessNote(route.access)].filter(Boolean).join('\n\n'),
    security: SECURITY[route.access] as RouteConfig['security'],
    request: {
      params: pathParameters(route.path),
      query: route.query,
      body: route.body && {
        required: route.body.required,
        content: Object.fromEntries(
          route.body.mediaTypes.map((type) => [type, { schema: route.body!.schema }]),
        ),
      },
    },
    responses,
  };
  if (route.access !== 'public')
    config['x-required-scope'] = SCOPES.includes(route.access as Scope) ? route.access : null;
  if (route.server === 'ingest') config.servers = [{ url: urls.ingest, description: 'ingest' }];
  return config;
}

function securitySchemes() {
  const roles = Object.entries(ROLES)
    .map(([role, scopes]) => `${role}: ${scopes.join(', ')}`)
    .join('; ');
  return {
    apiKey: {
      type: 'http' as const,
      scheme: 'bearer',
      bearerFormat: 'frk_…',
      description:
        `\`Authorization: Bearer frk_…\`. Keys carry scopes (${SCOPES.join(', ')}); ` +
        `dashboard roles are presets (${roles}).`,
    },
    session: {
      type: 'apiKey' as const,
      in: 'cookie' as const,
      name: SESSION_COOKIE,
      description:
        'The dashboard session from `POST /login` (over HTTPS the cookie is named ' +
        `\`__Host-${SESSION_COOKIE}\`); it has every scope. Changes need the ` +
        '`X-CSRF-Token` header or a same-origin `Origin`.',
    },
  };
}

/** The document of these operations, served from these URLs; `introduction` is its Markdown intro. */
export function buildOpenApiDocument(
  routes: readonly AnyOperation[],
  urls: PublicUrls,
  introduction: string,
): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  for (const [name, scheme] of Object.entries(securitySchemes()))
    registry.registerComponent('securitySchemes', name, scheme);
  for (const route of routes) registry.registerPath(routeConfig(route, urls));
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Formward API',
      version: '1.0.0',
      description: introduction,
    },
    externalDocs: { description: 'HTML reference', url: `${urls.base}/docs` },
    servers: [{ url: urls.base, description: 'API' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
  });
  // Plain JSON: the generator may leave undefined members behind.
  const plain = JSON.parse(JSON.stringify(document)) as OpenApiDocument;
  // OpenAPI 3.1 has `info.summary`; the generator's types do not know it yet.
  plain.info = { ...plain.info, summary: SUMMARY };
  return plain;
}
