import http from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Case } from './load';
import { caseSender, type Answer } from './post-case';
import { percentile, round, sleep } from './util';

export type PacedResult = {
  case: string;
  targetRate: number;
  achievedRate: number;
  responses: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  /** How late the generator sent its worst request (if large, the figures are not trustworthy). */
  maxSendLagMs: number;
  statusCodes: Record<string, number>;
  unexpectedStatus: number;
  errors: number;
};

export type PacedOptions = {
  /** The body of request `index` (default: the case's fixed body). */
  bodyOf?: (index: number) => string;
  /** Called with each answer and performance.now() when it had fully arrived. */
  onAnswer?: (answer: Answer) => void;
};

/**
 * Open-loop load: one request every 1/rate s, evenly spaced, whatever the answers do
 * (autocannon's overallRate instead lets every connection burst its share at each second).
 */
export async function runPaced(
  c: Case,
  rate: number,
  durationS: number,
  options: PacedOptions = {},
): Promise<PacedResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const post = caseSender(c, agent, { readBody: options.onAnswer !== undefined });
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  let maxSendLagMs = 0;

  const send = async (index: number) => {
    const body = options.bodyOf ? options.bodyOf(index) : c.body;
    const sentAt = performance.now();
    const answer = await post(index, body);
    if (!answer) {
      errors++;
      return;
    }
    latencies.push(answer.at - sentAt);
    const code = String(answer.status);
    statusCodes[code] = (statusCodes[code] ?? 0) + 1;
    options.onAnswer?.(answer);
  };

  const total = Math.round(rate * durationS);
  const start = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    maxSendLagMs = Math.max(maxSendLagMs, performance.now() - due);
    pending.push(send(i));
  }
  await Promise.all(pending);
  const elapsedS = (performance.now() - start) / 1000;
  agent.destroy();

  return {
    case: c.name,
    targetRate: rate,
    achievedRate: round(latencies.length / elapsedS, 1),
    responses: latencies.length,
    latencyMs: {
      p50: round(percentile(latencies, 50)),
      p90: round(percentile(latencies, 90)),
      p99: round(percentile(latencies, 99)),
      max: round(latencies.reduce((a, b) => Math.max(a, b), 0)),
    },
    maxSendLagMs: round(maxSendLagMs),
    statusCodes,
    unexpectedStatus: latencies.length - (statusCodes[String(c.expectStatus)] ?? 0),
    errors,
  };
}
