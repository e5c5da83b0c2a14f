import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/http/openapi/openapi-document';
import { docsPage } from '../../src/http/pages/docs-page';

const urls = { base: 'http://api.test:3000', ingest: 'http://ingest.test:3001' };

/**
 * Every route of src/http/routes/*.ts in OpenAPI form. Keep it in step with the routers: a
 * route missing here or in the document fails the test.
 */
const ROUTES: Record<string, string[]> = {
  '/f/{endpoint_token}': ['post', 'options'],
  '/f/{endpoint_token}/thanks': ['get'],
  '/f/{endpoint_token}/autocomplete.js': ['get'],
  '/json/{endpoint_token}': ['post', 'options'],
  '/api': ['get'],
  '/api/': ['get'],
  '/api/forms': ['get', 'post'],
  '/api/forms/{id}': ['get', 'patch'],
  '/api/submissions': ['get'],
  '/api/submissions/spam': ['get'],
  '/api/submissions/{id}': ['get'],
  '/api/submissions/{id}/deliveries': ['get'],
  '/api/submissions/{id}/replay': ['post'],
  '/api/submissions/{id}/files/{file_id}': ['get'],
  '/api/forms/{form_id}/plugins': ['get', 'post'],
  '/api/forms/{form_id}/plugins/{id}': ['get', 'delete'],
  '/api/forms/{form_id}/plugins/{id}/rotate_secret': ['post'],
  '/api/forms/{form_id}/plugins/{id}/deliveries': ['get'],
  '/api/stats': ['get'],
  '/api/form_stats/{form_id}': ['get'],
  '/api/public/spam_metrics': ['get'],
  '/api/public/verify_domain': ['get'],
  '/api/openapi.json': ['get'],
  '/docs': ['get'],
  '/': ['get'],
  '/login': ['get', 'post'],
  '/logout': ['post'],
  '/healthz': ['get'],
  '/readyz': ['get'],
};

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

describe('the OpenAPI document', () => {
  const document = buildOpenApiDocument(urls);
  const operation = (path: string, method: string) =>
    (document.paths[path] as Record<string, Json>)[method]!;

  it('is OpenAPI 3.1 on the base URL', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(document.servers).toEqual([{ url: urls.base, description: 'API' }]);
  });

  it('has every route with exactly its methods', () => {
    expect(Object.keys(document.paths).sort()).toEqual(Object.keys(ROUTES).sort());
    for (const [path, methods] of Object.entries(ROUTES)) {
      const present = Object.keys(document.paths[path]!).filter((k) => HTTP_METHODS.includes(k));
      expect(present.sort(), path).toEqual([...methods].sort());
    }
  });

  it('gives operations unique ids, responses and declared path parameters', () => {
    const ids = new Set<string>();
    for (const [path, methods] of Object.entries(ROUTES)) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const method of methods) {
        const op = operation(path, method);
        expect(ids.has(op.operationId as string), `${op.operationId}`).toBe(false);
        ids.add(op.operationId as string);
        expect(Object.keys(op.responses as Json).length).toBeGreaterThan(0);
        const declared = ((op.parameters ?? []) as Json[])
          .filter((p) => p.in === 'path')
          .map((p) => p.name);
        expect(declared, `${method} ${path}`).toEqual(inPath);
      }
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

  it('builds request bodies from the validating zod schemas', () => {
    const createForm = document.components.schemas.CreateForm!;
    expect(createForm.required).toEqual(['name']);
    expect(operation('/api/forms', 'post').requestBody).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateForm' } } },
    });
    expect(operation('/f/{endpoint_token}', 'post').requestBody).toMatchObject({
      content: {
        'application/x-www-form-urlencoded': expect.any(Object),
        'multipart/form-data': expect.any(Object),
      },
    });
  });

  it('turns the submission list query into parameters', () => {
    const parameters = operation('/api/submissions', 'get').parameters as Json[];
    const byName = Object.fromEntries(parameters.map((p) => [p.name, p]));
    expect(Object.keys(byName).sort()).toEqual(['form_id', 'page', 'per_page', 'q', 'range']);
    expect(byName.range).toMatchObject({
      in: 'query',
      required: false,
      schema: { enum: ['24h', '7d', '30d', 'all'], default: '24h' },
    });
    const domain = (operation('/api/public/verify_domain', 'get').parameters as Json[])[0];
    expect(domain).toMatchObject({ name: 'domain', in: 'query', required: true });
  });

  it('states security, scopes and error codes per operation', () => {
    const create = operation('/api/forms', 'post');
    expect(create['x-required-scope']).toBe('can_create_forms');
    expect(create.security).toEqual([{ apiKey: [] }, { session: [] }]);
    const responses = create.responses as Record<string, Json>;
    expect(responses['401']!['x-error-codes']).toEqual(['unauthorized', 'invalid_api_key']);
    expect(responses['403']!['x-error-codes']).toEqual(['forbidden']);
    expect(responses['422']!['x-error-codes']).toEqual(['validation_failed']);

    expect(operation('/api/stats', 'get').security).toEqual([{ session: [] }]);
    expect(operation('/api/forms', 'get')['x-required-scope']).toBeNull();
    expect(operation('/api/public/spam_metrics', 'get').security).toEqual([]);
    expect(document.components.securitySchemes.session).toMatchObject({
      in: 'cookie',
      name: 'formward_session',
    });

    const plugin = operation('/api/forms/{form_id}/plugins', 'post').responses as Record<
      string,
      Json
    >;
    expect(plugin['422']!['x-error-codes']).toEqual(
      expect.arrayContaining(['invalid_config', 'unsupported_plugin', 'validation_failed']),
    );
  });

  it('serves ingest operations from the ingest URL', () => {
    for (const path of ['/f/{endpoint_token}', '/json/{endpoint_token}']) {
      expect(operation(path, 'post').servers).toEqual([
        { url: urls.ingest, description: 'ingest' },
      ]);
    }
    expect(operation('/api/forms', 'get').servers).toBeUndefined();
  });

  it('is cached per URL pair', () => {
    expect(buildOpenApiDocument({ ...urls })).toBe(document);
    const other = buildOpenApiDocument({ base: 'https://forms.example', ingest: urls.ingest });
    expect(other).not.toBe(document);
    expect(other.servers[0]!.url).toBe('https://forms.example');
  });

  it('is plain JSON', () => {
    expect(JSON.parse(JSON.stringify(document))).toEqual(document);
  });
});

describe('the docs page', () => {
  const html = docsPage(buildOpenApiDocument(urls));

  it('lists every path', () => {
    for (const path of Object.keys(ROUTES)) expect(html, path).toContain(`>${path}<`);
  });

  it('has the errors and ingest sections the error links and forms point at', () => {
    expect(html).toContain('id="errors"');
    expect(html).toContain('href="#errors"');
    expect(html).toContain('id="ingest"');
    expect(html).toContain('href="#ingest"');
    expect(html).toContain('id="error-domain_not_allowed"');
    expect(html).toContain('_hp');
  });

  it('is self-contained', () => {
    expect(html).not.toMatch(/<script|<link\b|src=/i);
  });
});
