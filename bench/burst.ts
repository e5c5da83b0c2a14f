import http from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Case } from './load';
import type { PacedOptions } from './paced';
import { caseSender } from './post-case';
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
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const post = caseSender(c, agent, { readBody: true, timeoutMs: 30_000 });
  const statusCodes: Record<string, number> = {};
  let errors = 0;

  const send = async (index: number) => {
    const answer = await post(index, options.bodyOf(index));
    if (!answer) {
      errors++;
      return;
    }
    statusCodes[answer.status] = (statusCodes[answer.status] ?? 0) + 1;
    options.onAnswer(answer);
  };

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
