import { Agent, errors as undiciErrors, request } from 'undici';
import type { AllowList } from './address-policy';
import { BlockedAddressError } from './destination-url';
import {
  ConnectTimeoutError,
  guardedConnector,
  type Dial,
  type DestinationPolicy,
} from './guarded-connector';
import type { OwnListeners } from './own-listeners';

/** The receiver's answer is stored up to this many bytes (the specification's 4 KB). */
export const STORED_RESPONSE_BYTES = 4096;

export type FailureKind =
  | 'http_status'
  | 'redirect'
  | 'connect_timeout'
  | 'read_timeout'
  | 'blocked_address'
  | 'network'
  | 'cancelled';

export type SendResult = {
  ok: boolean;
  statusCode: number | null;
  /** The response body, cut at STORED_RESPONSE_BYTES (NUL characters removed: text columns refuse them). */
  responseBody: string | null;
  error: string | null;
  failure: FailureKind | null;
  durationMs: number;
  /** A 429 or 503 answer's `Retry-After`, in ms (seconds or an HTTP date); null otherwise. */
  retryAfterMs?: number | null;
};

/** `Retry-After` as milliseconds from now: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterMs(header: unknown, now = Date.now()): number | null {
  const text = Array.isArray(header) ? String(header[0]) : typeof header === 'string' ? header : '';
  if (/^\s*\d+(\.\d+)?\s*$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export type OutboundSender = {
  send(request: {
    url: string;
    /** POST unless said (a provider's API may need GET or PUT); GET sends no body. */
    method?: 'GET' | 'POST' | 'PUT' | 'PATCH';
    body: string;
    headers: Record<string, string>;
    /** Aborts the attempt (Temporal cancellation); it then ends as a 'cancelled' failure. */
    signal?: AbortSignal;
    /**
     * How much of the answer is read (STORED_RESPONSE_BYTES unless said): more for an API
     * answer the caller parses (a sheet's header row), never stored as it is.
     */
    maxResponseBytes?: number;
  }): Promise<SendResult>;
  close(): Promise<void>;
};

export async function readCapped(
  body: AsyncIterable<Buffer> & { destroy(): void },
  cap: number,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= cap) {
      body.destroy(); // the rest is not kept; stop reading it
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, cap);
}

/** What went wrong with a request that got no answer, in words safe to log and show. */
export function classifyFailure(
  error: unknown,
  signals: { deadline: AbortSignal; deadlineMs: number; cancel?: AbortSignal },
): { failure: FailureKind; message: string } {
  const message = (error as Error)?.message ?? String(error);
  if (signals.cancel?.aborted) {
    const reason = (signals.cancel.reason as Error | undefined)?.message ?? 'aborted';
    return { failure: 'cancelled', message: `attempt cancelled: ${reason}` };
  }
  if (error instanceof BlockedAddressError) return { failure: 'blocked_address', message };
  if (error instanceof ConnectTimeoutError || error instanceof undiciErrors.ConnectTimeoutError)
    return { failure: 'connect_timeout', message: `connect timeout: ${message}` };
  if (
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError
  )
    return { failure: 'read_timeout', message: `read timeout: ${message}` };
  if (signals.deadline.aborted)
    return {
      failure: 'read_timeout',
      message: `read timeout: no complete answer within the attempt's deadline of ${signals.deadlineMs} ms`,
    };
  const code = (error as { code?: string })?.code;
  return {
    failure: 'network',
    message: code && !message.includes(code) ? `${code}: ${message}` : message,
  };
}

/** How a sender (or fetch adapter, outbound-fetch.ts) reaches its destinations. */
export type OutboundOptions = {
  connectTimeoutMs: number;
  readTimeoutMs: number;
  /** `public` unless said (guarded-connector.ts: who chose the destination). */
  destinations?: DestinationPolicy;
  /** WEBHOOK_ALLOW_PRIVATE, for `public` destinations. */
  allowList?: AllowList;
  lookupHost: (host: string) => Promise<string[]>;
  /** This service's own addresses, refused at connect time (a delivery loop). */
  ownListeners?: OwnListeners;
  dial?: Dial;
  /** The whole request's limit when not the connect and read timeouts together. */
  deadlineMs?: number;
};

/** The undici agent every outbound request goes through: the guarded connector, HTTP/1.1. */
export function createGuardedAgent(options: OutboundOptions): Agent {
  return new Agent({
    connect: guardedConnector(options),
    // HTTP/1.1 only, as the connector offers (undici 8 would otherwise take h2 when offered).
    allowH2: false,
    headersTimeout: options.readTimeoutMs,
    bodyTimeout: options.readTimeoutMs,
    keepAliveTimeout: 4_000,
  });
}

/** The whole request's limit: `deadlineMs`, else the connect and read timeouts together. */
export const deadlineOf = (options: OutboundOptions): number =>
  options.deadlineMs ?? options.connectTimeoutMs + options.readTimeoutMs;

/**
 * Sends every outbound request: plugins' deliveries (docs/webhook-delivery.md) and CAPTCHA
 * verification (single sign-on uses the same agent through outbound-fetch.ts).
 * POST (or the method asked) over HTTPS through the guarded connector,
 * connect and read timeouts, and an overall deadline of both together: undici's header and body
 * timeouts restart on every byte (and every `1xx`), so they alone let a trickling receiver hold
 * an attempt for hours. Redirects not followed (a 3xx is a failure), the answer kept
 * up to 4 KB. Never throws: every outcome is a SendResult.
 */
export function createOutboundSender(options: OutboundOptions): OutboundSender {
  const agent = createGuardedAgent(options);
  const deadlineMs = deadlineOf(options);
  return {
    async send({ url, method = 'POST', body, headers, signal: cancel, maxResponseBytes }) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const deadline = AbortSignal.timeout(deadlineMs);
      try {
        const response = await request(url, {
          dispatcher: agent,
          method,
          headers,
          body: method === 'GET' ? undefined : body,
          signal: cancel ? AbortSignal.any([deadline, cancel]) : deadline,
        });
        const bytes = await readCapped(response.body, maxResponseBytes ?? STORED_RESPONSE_BYTES);
        const responseBody = bytes.toString('utf8').replaceAll('\0', '');
        const statusCode = response.statusCode;
        const ok = statusCode >= 200 && statusCode < 300;
        const redirect = statusCode >= 300 && statusCode < 400;
        return {
          ok,
          statusCode,
          responseBody,
          error: ok
            ? null
            : redirect
              ? `redirect to ${String(response.headers.location ?? '(no location)')} not followed`
              : `receiver answered ${statusCode}`,
          failure: ok ? null : redirect ? 'redirect' : 'http_status',
          durationMs: elapsed(),
          retryAfterMs:
            statusCode === 429 || statusCode === 503
              ? retryAfterMs(response.headers['retry-after'])
              : null,
        };
      } catch (error) {
        const { failure, message } = classifyFailure(error, { deadline, deadlineMs, cancel });
        return {
          ok: false,
          statusCode: null,
          responseBody: null,
          error: message,
          failure,
          durationMs: elapsed(),
        };
      }
    },
    close: () => agent.close(),
  };
}
