import { apiGuide } from '../src/http/docs/api-guide';
import {
  buildOpenApiDocument,
  type OpenApiDocument,
} from '../src/http/kit/openapi/openapi-document';
import { OPERATIONS } from '../src/http/routes';

/*
 * The OpenAPI document the client package (client/) is generated from: what
 * `GET /api/openapi.json` answers on a server at `npm start`'s default address, built from
 * the same operations without starting one. scripts/export-client-openapi.ts writes it to
 * client/openapi.json; test/client/client-drift.test.ts fails when the committed copy differs.
 */

/** The addresses written into the client's copy of the document: `npm start`'s defaults. */
export const CLIENT_DOCUMENT_URLS = {
  base: 'http://127.0.0.1:3000',
  ingest: 'http://127.0.0.1:3000',
};

/** Where the document and the types generated from it are committed, from the repository root. */
export const CLIENT_OPENAPI_FILE = 'client/openapi.json';
export const CLIENT_TYPES_FILE = 'client/src/generated/api.ts';

/** The one command that rewrites both (package.json). */
export const REGENERATE_CLIENT_COMMAND = 'npm run client:generate';

export function clientOpenApiDocument(): OpenApiDocument {
  const guide = apiGuide(CLIENT_DOCUMENT_URLS);
  return buildOpenApiDocument(OPERATIONS, CLIENT_DOCUMENT_URLS, guide.introduction);
}

/** The document as the file holds it: two-space JSON and a final newline. */
export function clientOpenApiText(): string {
  return `${JSON.stringify(clientOpenApiDocument(), null, 2)}\n`;
}
