import http from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Case } from './load';

/** One answer, for callers that need more than the timing (e.g. the id ingest returned). */
export type Answer = { index: number; status: number; body: string; at: number };

export type SenderOptions = {
  /** Keep the answer's body (otherwise it is drained unread). */
  readBody: boolean;
  /** Give up on a request after this long (counted as failed). */
  timeoutMs?: number;
};

/**
 * Returns a function that POSTs request `index` of a case with the given body over `agent`.
 * It resolves with the answer and performance.now() when the answer had fully arrived, or
 * with null when the request failed.
 */
export function caseSender(c: Case, agent: http.Agent, options: SenderOptions) {
  const url = new URL(c.url);
  return (index: number, body: string) =>
    new Promise<Answer | null>((resolve) => {
      const payload = Buffer.from(body);
      const chunks: Buffer[] = [];
      const request = http.request(
        {
          agent,
          method: 'POST',
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          headers: { ...c.headers, 'content-length': String(payload.length) },
          timeout: options.timeoutMs,
        },
        (response) => {
          if (options.readBody) response.on('data', (chunk: Buffer) => chunks.push(chunk));
          else response.resume();
          response.on('end', () => {
            const at = performance.now();
            const status = response.statusCode ?? 0;
            resolve({ index, status, body: Buffer.concat(chunks).toString(), at });
          });
        },
      );
      request.on('timeout', () => request.destroy(new Error('timeout')));
      request.on('error', () => resolve(null));
      request.end(payload);
    });
}
