import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/http/kit/errors/error-codes';
import { buildOpenApiDocument } from '../../src/http/kit/openapi/openapi-document';
import { apiGuide } from '../../src/http/docs/api-guide';
import { docsPage } from '../../src/http/docs/docs-page';
import { OPERATIONS } from '../../src/http/routes';
import { routeErrors } from '../../src/http/kit/routing/route-errors';

const urls = { base: 'http://api.test:3000', ingest: 'http://ingest.test:3001' };

type Json = Record<string, unknown>;
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function collectRefs(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => collectRefs(v, into));
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string') into.push(v);
      else collectRefs(v, into);
    }
  }
  return into;
}

const guide = apiGuide(urls);
const document = buildOpenApiDocument(OPERATIONS, urls, guide.introduction);
const operation = (path: string, method: string) =>
  (document.paths[path] as Record<string, Json>)[method]!;

describe('the OpenAPI document, built from the operations (routes and documented pages)', () => {
  it('is OpenAPI 3.1 on the base URL', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(document.servers).toEqual([{ url: urls.base, description: 'API' }]);
  });

  it('has every operation with its method, and nothing else', () => {
    const registered = OPERATIONS.map((r) => `${r.method} ${r.path}`).sort();
    const documented = Object.entries(document.paths)
      .flatMap(([path, item]) =>
        Object.keys(item)
          .filter((key) => HTTP_METHODS.includes(key))
          .map((method) => `${method} ${path}`),
      )
      .sort();
    expect(documented).toEqual(registered);
    expect(new Set(registered).size).toBe(OPERATIONS.length);
  });

  it('gives every operation its id, its declared statuses and its error codes', () => {
    for (const route of OPERATIONS) {
      const op = operation(route.path, route.method);
      expect(op.operationId).toBe(route.operationId);
      const responses = op.responses as Record<string, Json>;
      const errors = routeErrors(route);
      const expected = [...Object.keys(route.responses), ...errors.map((e) => String(e.status))];
      expect(Object.keys(responses).sort(), route.operationId).toEqual(
        [...new Set(expected)].sort(),
      );
      for (const status of Object.keys(route.responses)) {
        // An answer and an error at one status would hide one of them.
        expect(
          errors.map((e) => String(e.status)),
          route.operationId,
        ).not.toContain(status);
      }
      for (const error of errors)
        expect(responses[String(error.status)]!['x-error-codes']).toContain(error.code);
    }
    expect(new Set(OPERATIONS.map((r) => r.operationId)).size).toBe(OPERATIONS.length);
  });

  it('declares the path parameters of every path', () => {
    for (const route of OPERATIONS) {
      const inPath = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = ((operation(route.path, route.method).parameters ?? []) as Json[])
        .filter((p) => p.in === 'path')
        .map((p) => p.name);
      expect(declared, route.operationId).toEqual(inPath);
    }
  });

  it('resolves every $ref to a component', () => {
    const refs = collectRefs(document);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(document.components.schemas, ref).toHaveProperty([ref.split('/').pop()!]);
    }
  });

  it('knows every error code it names', () => {
    for (const route of OPERATIONS)
      for (const error of routeErrors(route)) expect(ERROR_CODES).toHaveProperty(error.code);
  });

  it('builds request bodies and query parameters from the validating zod schemas', () => {
    expect(document.components.schemas.CreateForm!.required).toEqual(['name']);
    expect(operation('/api/forms', 'post').requestBody).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateForm' } } },
    });
    const parameters = operation('/api/submissions', 'get').parameters as Json[];
    const range = parameters.find((p) => p.name === 'range');
    expect(range).toMatchObject({ in: 'query', schema: { enum: ['24h', '7d', '30d', 'all'] } });
    expect(range?.required ?? false).toBe(false);
  });

  it('states security and scopes per operation', () => {
    expect(operation('/api/forms', 'post')['x-required-scope']).toBe('can_create_forms');
    expect(operation('/api/forms', 'post').security).toEqual([{ apiKey: [] }, { session: [] }]);
    expect(operation('/api/stats', 'get').security).toEqual([{ session: [] }]);
    expect(operation('/api/forms', 'get')['x-required-scope']).toBeNull();
    expect(operation('/api/public/spam_metrics', 'get').security).toEqual([]);
    expect(document.components.securitySchemes.session).toMatchObject({
      in: 'cookie',
      name: 'formward_session',
    });
  });

  it('documents the status ingest answers for an unreadable form body', () => {
    const responses = operation('/f/{endpoint_token}', 'post').responses as Record<string, Json>;
    expect(responses['400']!['x-error-codes']).toEqual(['validation_failed']);
    expect(responses['422']!['x-error-codes']).toContain('validation_failed');
  });

  it('serves ingest operations from the ingest URL', () => {
    for (const route of OPERATIONS) {
      const servers = operation(route.path, route.method).servers;
      if (route.server === 'ingest')
        expect(servers).toEqual([{ url: urls.ingest, description: 'ingest' }]);
      else expect(servers, route.operationId).toBeUndefined();
    }
  });

  it('is plain JSON', () => {
    expect(JSON.parse(JSON.stringify(document))).toEqual(document);
  });
});

describe('the docs page', () => {
  const html = docsPage(document, guide);

  it('lists every path and operation', () => {
    for (const route of OPERATIONS) {
      expect(html, route.path).toContain(`>${route.path}<`);
      expect(html).toContain(`id="op-${route.operationId}"`);
    }
  });

  it('has the errors and ingest sections the error links and forms point at', () => {
    expect(html).toContain('id="errors"');
    expect(html).toContain('href="#errors"');
    expect(html).toContain('id="ingest"');
    expect(html).toContain('href="#ingest"');
    for (const code of Object.keys(ERROR_CODES)) expect(html).toContain(`id="error-${code}"`);
    expect(html).toContain('_hp');
  });

  it('renders the Markdown guide with the values of this server', () => {
    expect(html).toContain('<h2>Authentication</h2>');
    expect(html).toContain(`<code>${urls.ingest}/f/{endpoint_token}</code>`);
    expect(html).toContain('<code>can_read_spam_submissions</code>');
    expect(html).not.toContain('{{');
  });

  it('is self-contained', () => {
    expect(html).not.toMatch(/<script|<link\b|src=/i);
  });
});
