import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateTypes } from '../../client/scripts/generate-types';
import {
  CLIENT_OPENAPI_FILE,
  CLIENT_TYPES_FILE,
  REGENERATE_CLIENT_COMMAND,
  clientOpenApiDocument,
  clientOpenApiText,
} from '../../scripts/client-openapi';

/*
 * The client package's committed document and types (client/openapi.json,
 * client/src/generated/api.ts) are what the routes describe now: a route, schema or error code
 * changed without regenerating them fails here, in the unit run CI does.
 */

const root = path.resolve(__dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const stale = (file: string) =>
  `${file} is out of date with the routes: run \`${REGENERATE_CLIENT_COMMAND}\` and commit the result`;

describe('the client package is generated from the current OpenAPI document', () => {
  it('client/openapi.json is the document the routes build', () => {
    const committed = read(CLIENT_OPENAPI_FILE);
    // The parsed comparison shows where they differ; the text one catches formatting.
    expect(JSON.parse(committed), stale(CLIENT_OPENAPI_FILE)).toEqual(clientOpenApiDocument());
    expect(committed === clientOpenApiText(), stale(CLIENT_OPENAPI_FILE)).toBe(true);
  });

  it('client/src/generated/api.ts is what openapi-typescript makes of client/openapi.json', async () => {
    const expected = await generateTypes(JSON.parse(read(CLIENT_OPENAPI_FILE)));
    expect(read(CLIENT_TYPES_FILE) === expected, stale(CLIENT_TYPES_FILE)).toBe(true);
  });
});
