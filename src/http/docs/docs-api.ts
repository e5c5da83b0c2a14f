import type { OpenApiDocument } from '../kit/openapi/openapi-document';
import { buildOpenApiDocument } from '../kit/openapi/openapi-document';
import { apiGuide } from './api-guide';
import { docsPage } from './docs-page';
import type { PublicUrls } from '../../runtime/public-urls';
import { defineRoute, type AnyOperation } from '../kit/routing/define-route';

/** The page has no scripts or external resources; say so to the browser. */
const DOCS_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

/**
 * `GET /api/openapi.json` and `GET /docs`: public, built from the operations (`routes`,
 * read when first asked, since these two are among them) and the Markdown under docs/api.
 */
export function docsRoutes(routes: () => readonly AnyOperation[]) {
  // Built once per URL pair: the URLs are only known once the port is bound.
  const documents = new Map<string, { document: OpenApiDocument; page?: string }>();
  const documentFor = (urls: PublicUrls) => {
    const key = `${urls.base}\n${urls.ingest}`;
    let entry = documents.get(key);
    if (!entry) {
      const guide = apiGuide(urls);
      entry = { document: buildOpenApiDocument(routes(), urls, guide.introduction) };
      documents.set(key, entry);
    }
    return entry;
  };

  return [
    defineRoute({
      method: 'get',
      path: '/api/openapi.json',
      operationId: 'getOpenApiDocument',
      tag: 'Documentation',
      summary: 'The OpenAPI 3.1 document',
      access: 'public',
      responses: { 200: { description: 'the document', content: 'application/json' } },
      errors: [],
    }).handle((_input, ctx) => ({
      status: 200,
      content: JSON.stringify(documentFor(ctx.urls).document),
    })),
    defineRoute({
      method: 'get',
      path: '/docs',
      operationId: 'getDocsPage',
      tag: 'Documentation',
      summary: 'This API reference',
      access: 'public',
      responses: { 200: { description: 'the reference', content: 'text/html' } },
      errors: [],
    }).handle((_input, ctx) => {
      const entry = documentFor(ctx.urls);
      entry.page ??= docsPage(entry.document, apiGuide(ctx.urls));
      return {
        status: 200,
        content: entry.page,
        headers: { 'Content-Security-Policy': DOCS_CSP },
      };
    }),
  ];
}
