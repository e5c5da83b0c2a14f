import http from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Case } from './load';
import type { PacedOptions } from './paced';
import { round } from './util';

export type BurstResult = {
  requests: number;
  /** Wall time from the first request to the last answer. */
  seconds: number;
  /** Answers per second: how fast ingest took the burst. */
  rate: number;
  statusCodes: Record<string, number>;
  errors: number;
};

/**
 * Closed loop: `count` requests as fast as the server takes them, `concurrency` in flight at
 * a time (each sender sends its next request when the previous one is answered).
 */
export async function runBurst(
  c: Case,
  count: number,
  concurrency: number,
  options: Required<PacedOptions>,
): Promise<BurstResult> {
  const url = new URL(c.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const statusCodes: Record<string, number> = {};
  let errors = 0;

  const send = (index: number) =>
    new Promise<void>((resolve) => {
      const body = Buffer.from(options.bodyOf(index));
      const chunks: Buffer[] = [];
      const request = http.request(
        {
          agent,
          method: 'POST',
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          headers: { ...c.headers, 'content-length': String(body.length) },
          timeout: 30_000,
        },
        (response) => {
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const status = response.statusCode ?? 0;
            statusCodes[status] = (statusCodes[status] ?? 0) + 1;
            const at = performance.now();
            options.onAnswer({ index, status, body: Buffer.concat(chunks).toString(), at });
            resolve();
          });
        },
      );
      request.on('timeout', () => request.destroy(new Error('timeout')));
      request.on('error', () => {
        errors++;
        resolve();
      });
      request.end(body);
    });

  let next = 0;
  const sender = async () => {
    while (next < count) await send(next++);
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, sender));
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  return {
    requests: count,
    seconds: round(seconds, 2),
    rate: round((count - errors) / seconds, 1),
    statusCodes,
    errors,
  };
}
