import { request } from 'undici';
import {
  classifyFailure,
  createGuardedAgent,
  deadlineOf,
  readCapped,
  type FailureKind,
  type OutboundOptions,
} from './sender';

/** What a Response (and so fetch) takes as a body: a string, bytes, a form, a stream. */
type FetchBody = ConstructorParameters<typeof Response>[0];

/** What a library hands its `fetch` (openid-client's CustomFetchOptions is one such). */
export type OutboundFetchInit = {
  method?: string;
  headers?: Record<string, string>;
  body?: FetchBody;
  /** Redirects are never followed: a 3xx is handed back as it is (`manual`). */
  redirect?: 'manual';
  /** The caller's own limit; when it fires, the request ends with its reason, as fetch does. */
  signal?: AbortSignal;
  duplex?: 'half';
};

export type OutboundFetch = (url: string, init?: OutboundFetchInit) => Promise<Response>;

/**
 * A request that got no usable answer: a TypeError, as fetch's own network failures are (a
 * library passes it on unchanged). The message names the failure and where it went (origin
 * and path: never a query, a header or the body, which may carry codes and secrets).
 */
export class OutboundFetchError extends TypeError {
  override name = 'OutboundFetchError';

  constructor(
    readonly failure: FailureKind | 'too_large',
    message: string,
  ) {
    super(message);
  }
}

// A status that has no body in a WHATWG Response (its constructor refuses one).
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** Origin and path, for messages: the query may carry a code or a token. */
function placeOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return 'an invalid URL';
  }
}

/** The body as bytes, and the content type fetch would give it (a URLSearchParams form). */
async function bodyBytes(
  body: FetchBody,
  headers: Record<string, string>,
): Promise<Buffer | undefined> {
  if (body === null || body === undefined) return undefined;
  const wrapped = new Response(body);
  const type = wrapped.headers.get('content-type');
  const named = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
  if (type && !named) headers['content-type'] = type;
  return Buffer.from(await wrapped.arrayBuffer());
}

function responseHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
      headers.append(name, one);
  }
  return headers;
}

/**
 * A fetch-shaped function over the same guarded undici agent as the outbound sender
 * (sender.ts): the destination policy on every address dialled, the connect and read timeouts
 * and the overall deadline, redirects never followed, and the answer read up to
 * `maxResponseBytes` (a larger one is a failure, not a cut answer: a library parses it).
 * Headers are sent as the caller gives them, its user-agent included. For a library that
 * takes a custom fetch: openid-client for single sign-on (domain/accounts/oidc-client.ts).
 */
export function createOutboundFetch(options: OutboundOptions & { maxResponseBytes: number }): {
  fetch: OutboundFetch;
  close(): Promise<void>;
} {
  const agent = createGuardedAgent(options);
  const deadlineMs = deadlineOf(options);
  const fetch: OutboundFetch = async (url, init = {}) => {
    const cancel = init.signal;
    cancel?.throwIfAborted();
    const deadline = AbortSignal.timeout(deadlineMs);
    const headers = { ...init.headers };
    const method = (init.method ?? 'GET').toUpperCase();
    const body = await bodyBytes(init.body, headers);
    try {
      const response = await request(url, {
        dispatcher: agent,
        method,
        headers,
        body,
        signal: cancel ? AbortSignal.any([deadline, cancel]) : deadline,
      });
      // One byte past the limit tells a larger answer from one that fits.
      const bytes = await readCapped(response.body, options.maxResponseBytes + 1);
      if (bytes.length > options.maxResponseBytes)
        throw new OutboundFetchError(
          'too_large',
          `${placeOf(url)}: the answer is larger than ${options.maxResponseBytes} bytes`,
        );
      const status = response.statusCode;
      return new Response(NULL_BODY_STATUSES.has(status) ? null : new Uint8Array(bytes), {
        status,
        headers: responseHeaders(response.headers),
      });
    } catch (error) {
      if (error instanceof OutboundFetchError) throw error;
      // The caller's own limit: its reason, as fetch rejects (openid-client names a timeout).
      if (cancel?.aborted) throw cancel.reason;
      const { failure, message } = classifyFailure(error, { deadline, deadlineMs });
      throw new OutboundFetchError(failure, `${placeOf(url)}: ${message}`);
    }
  };
  return { fetch, close: () => agent.close() };
}
