import autocannon from 'autocannon';
import { percentile, round } from './util';

/** One HTTP request shape to hammer, and what a successful answer looks like. */
export type Case = {
  name: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  expectStatus: number;
  /** Checks the response body (autocannon counts a false as a mismatch). */
  verifyBody: (body: string) => boolean;
};

export type LoadResult = {
  case: string;
  connections: number;
  durationS: number;
  responses: number;
  rps: number;
  /** From the raw per-response times (sub-millisecond, no coordinated-omission correction). */
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  /** autocannon's own histogram (whole ms). */
  autocannon: { rpsAverage: number; p50: number; p99: number };
  statusCodes: Record<string, number>;
  /** Answers with another status than `expectStatus` (for /f the 302 is the success). */
  unexpectedStatus: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  non2xx: number;
};

export type LoadOptions = { durationS: number; connections: number };

/** Runs autocannon against one case and summarises it. */
export function runLoad(c: Case, options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: c.url,
        method: 'POST',
        headers: c.headers,
        body: c.body,
        connections: options.connections,
        duration: options.durationS,
        verifyBody: (body) => c.verifyBody(String(body ?? '')),
      },
      (error, result) => {
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        const statusCodes: Record<string, number> = {};
        for (const [code, stat] of Object.entries(result.statusCodeStats ?? {}))
          statusCodes[code] = stat.count ?? 0;
        const expected = statusCodes[String(c.expectStatus)] ?? 0;
        resolve({
          case: c.name,
          connections: options.connections,
          durationS: result.duration,
          responses: latencies.length,
          rps: round(latencies.length / result.duration, 1),
          latencyMs: {
            p50: round(percentile(latencies, 50)),
            p90: round(percentile(latencies, 90)),
            p99: round(percentile(latencies, 99)),
            max: round(latencies.reduce((a, b) => Math.max(a, b), 0)),
          },
          autocannon: {
            rpsAverage: result.requests.average,
            p50: result.latency.p50,
            p99: result.latency.p99,
          },
          statusCodes,
          unexpectedStatus: latencies.length - expected,
          errors: result.errors,
          timeouts: result.timeouts,
          mismatches: result.mismatches,
          non2xx: result.non2xx,
        });
      },
    );
    instance.on('response', (_client, _status, _bytes, responseTime) =>
      latencies.push(responseTime),
    );
  });
}

/** Sends one request and checks the answer, so a broken set-up fails before the load runs. */
export async function checkOnce(c: Case): Promise<void> {
  const response = await fetch(c.url, {
    method: 'POST',
    headers: c.headers,
    body: c.body,
    redirect: 'manual',
  });
  const body = await response.text();
  if (response.status !== c.expectStatus || !c.verifyBody(body)) {
    throw new Error(
      `${c.name}: expected ${c.expectStatus}, got ${response.status}: ${body.slice(0, 300)}`,
    );
  }
}
