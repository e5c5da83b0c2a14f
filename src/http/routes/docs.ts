import { Router } from 'express';
import type { AppContext } from '../../app-context';
import { methodNotAllowed } from '../middleware/errors';
import { buildOpenApiDocument, type OpenApiDocument } from '../openapi/openapi-document';
import { docsPage } from '../pages/docs-page';

/** The page has no scripts or external resources; say so to the browser. */
const DOCS_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

/** `GET /api/openapi.json` and `GET /docs`: public, built from the same zod schemas as validation. */
export function docsRouter(ctx: AppContext): Router {
  const router = Router();
  // One rendering per document; documents are cached per URL pair by buildOpenApiDocument.
  const pages = new WeakMap<OpenApiDocument, string>();

  router
    .route('/api/openapi.json')
    // ctx.urls is read per request: it is filled in only once the port is bound.
    .get((_req, res) => void res.json(buildOpenApiDocument(ctx.urls)))
    .all(methodNotAllowed(['GET']));

  router
    .route('/docs')
    .get((_req, res) => {
      const document = buildOpenApiDocument(ctx.urls);
      let html = pages.get(document);
      if (html === undefined) {
        html = docsPage(document);
        pages.set(document, html);
      }
      res.setHeader('Content-Security-Policy', DOCS_CSP);
      res.type('html').send(html);
    })
    .all(methodNotAllowed(['GET']));

  return router;
}
