import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../src/embedded/package-root';
import { CLIENT_OPENAPI_FILE, clientOpenApiText } from './client-openapi';

/*
 * `npm run client:generate`, first step: writes the OpenAPI document of the routes to
 * client/openapi.json (scripts/client-openapi.ts). The second step, in client/, generates the
 * types from that file (client/scripts/generate-types.ts).
 */
const file = path.join(packageRoot(), CLIENT_OPENAPI_FILE);
fs.writeFileSync(file, clientOpenApiText());
console.log(`wrote ${CLIENT_OPENAPI_FILE}`);
