import createClient from 'openapi-fetch';
import type { Api } from './api.js';
import type { paths } from './generated/api.js';
import { Domains } from './resources/domains.js';
import { Forms } from './resources/forms.js';
import { submitTo, type SubmitOptions } from './resources/ingest.js';
import { Plugins } from './resources/plugins.js';
import { Stats } from './resources/stats.js';
import { Submissions } from './resources/submissions.js';
import type { IngestResult, SubmissionFields } from './types.js';

export type FormwardOptions = {
  /** The API's address (`BASE_URL` of the instance), e.g. `https://forms.example.com`. */
  baseUrl: string;
  /** The ingest address (`INGEST_URL`) when it differs from `baseUrl`. */
  ingestUrl?: string;
  /** An API key, `frk_…`, sent as `Authorization: Bearer` to the API (never to ingest). */
  apiKey?: string;
  /** Headers for every API request. */
  headers?: Record<string, string>;
  /** A fetch to use instead of the global one (tests, retries, proxies). */
  fetch?: (request: Request) => Promise<Response>;
};

/**
 * The Formward API, typed from its OpenAPI document. Every method resolves to the resource
 * (or, for lists, the page with `meta` and `links`) and rejects with a FormwardError for any
 * answer outside 2xx; network errors reject as fetch's own.
 */
export class Formward {
  readonly forms: Forms;
  readonly submissions: Submissions;
  readonly plugins: Plugins;
  readonly domains: Domains;
  readonly stats: Stats;
  /** The underlying openapi-fetch client of the API, for operations not wrapped here. */
  readonly api: Api;
  readonly #submit: ReturnType<typeof submitTo>;

  constructor(options: FormwardOptions) {
    const authorization: Record<string, string> = options.apiKey
      ? { Authorization: `Bearer ${options.apiKey}` }
      : {};
    const common = { fetch: options.fetch };
    this.api = createClient<paths>({
      ...common,
      baseUrl: options.baseUrl,
      headers: { ...options.headers, ...authorization },
    });
    const ingest = createClient<paths>({
      ...common,
      baseUrl: options.ingestUrl ?? options.baseUrl,
    });
    this.forms = new Forms(this.api);
    this.submissions = new Submissions(this.api);
    this.plugins = new Plugins(this.api, ingest, authorization);
    this.domains = new Domains(this.api);
    this.stats = new Stats(this.api);
    this.#submit = submitTo(ingest);
  }

  /** Posts `fields` to the form with this endpoint_token, as a visitor would (no key). */
  submit(
    endpointToken: string,
    fields: SubmissionFields,
    options?: SubmitOptions,
  ): Promise<IngestResult> {
    return this.#submit(endpointToken, fields, options);
  }
}
