import type { Api } from '../api.js';
import { unwrap } from '../errors.js';
import type { IngestResult, SubmissionFields } from '../types.js';

export type SubmitOptions = {
  /** Extra request headers, e.g. `Accept-Language` for `field_errors` in the page's language. */
  headers?: Record<string, string>;
};

/**
 * Posts one submission as JSON to `/json/{endpoint_token}` on the ingest address: no key is
 * sent (ingest is public), so this also works from a browser for a form's visitors.
 */
export function submitTo(ingest: Api) {
  return async (
    endpointToken: string,
    fields: SubmissionFields,
    options: SubmitOptions = {},
  ): Promise<IngestResult> =>
    unwrap(
      ingest.POST('/json/{endpoint_token}', {
        params: { path: { endpoint_token: endpointToken } },
        body: fields,
        headers: options.headers,
      }),
    );
}
