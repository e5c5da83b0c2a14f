import type { Client } from 'openapi-fetch';
import type { paths } from './generated/api.js';

/** The typed fetch client of the generated paths (openapi-fetch) that the resources call. */
export type Api = Client<paths>;
