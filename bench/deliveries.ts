import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  serviceSignatureValid,
  type HttpsReceiver,
  type ReceivedWebhook,
} from '../test/support/https-receiver';
import type { Answer } from './post-case';
import { percentile, round, sleep } from './util';

/** What the bench reads from one webhook request. */
export type Receipt = {
  /** `id` of the JSON body: the submission id (null when the body was not such JSON). */
  submissionId: string | null;
  /** The `webhook-id` header: the delivery id, the same for every retry of one delivery. */
  webhookId: string | null;
  /** performance.now() when the whole body had arrived. */
  at: number;
  signatureOk: boolean;
};

function submissionIdOf(body: string): string | null {
  try {
    const id = (JSON.parse(body) as { id?: unknown }).id;
    return id === undefined || id === null ? null : String(id);
  } catch {
    return null;
  }
}

/** Reads a received request, checking `X-Service-Signature` with the plugin's secret. */
export function receiptOf(request: ReceivedWebhook, secret: string): Receipt {
  const webhookId = request.headers['webhook-id'];
  return {
    submissionId: submissionIdOf(request.body),
    webhookId: typeof webhookId === 'string' ? webhookId : null,
    at: request.at,
    signatureOk: serviceSignatureValid(request, secret),
  };
}

/** A submission ingest accepted: its id and when the answer had arrived (performance.now()). */
export type Submitted = { id: string; answeredAt: number };

/**
 * Request bodies that all differ (phase, sequence number, random nonce), in plain words: the
 * burst spam rule flags 3+ identical payloads from one address, and spam is not delivered.
 */
export const distinctBody = (phase: string) => (index: number) =>
  JSON.stringify({
    email: `e2e-${phase}-${index}@example.com`,
    message: `End to end bench, ${phase} submission number ${index}, nonce ${randomBytes(6).toString('hex')}`,
  });

/** Collects the ids ingest answered with; anything else counts as rejected. */
export function submissionLog() {
  const log = {
    submitted: [] as Submitted[],
    rejected: 0,
    onAnswer(answer: Answer) {
      let id: unknown;
      try {
        id = answer.status === 200 ? (JSON.parse(answer.body) as { id?: unknown }).id : undefined;
      } catch {
        /* not JSON */
      }
      if (id === undefined || id === null) log.rejected++;
      else log.submitted.push({ id: String(id), answeredAt: answer.at });
    },
  };
  return log;
}

/**
 * Waits until every id has reached the receiver at least once, or until `timeoutMs`;
 * tells `progress` how many are still missing every 15 s.
 */
export async function waitForDeliveries(
  receiver: HttpsReceiver,
  ids: string[],
  timeoutMs: number,
  progress: (missing: number) => void = () => undefined,
): Promise<{ complete: boolean; waitedS: number; delivered: number }> {
  const started = performance.now();
  const missing = new Set(ids);
  let seen = 0;
  let told = started;
  while (missing.size > 0 && performance.now() - started < timeoutMs) {
    for (; seen < receiver.received.length; seen++) {
      const id = submissionIdOf(receiver.received[seen].body);
      if (id !== null) missing.delete(id);
    }
    if (missing.size === 0) break;
    if (performance.now() - told >= 15_000) {
      told = performance.now();
      progress(missing.size);
    }
    await sleep(100);
  }
  return {
    complete: missing.size === 0,
    waitedS: round((performance.now() - started) / 1000, 1),
    delivered: ids.length - missing.size,
  };
}

export type DeliveryStats = {
  submitted: number;
  /** Distinct submissions that reached the receiver. */
  received: number;
  lost: number;
  /** The lost ids, to look up in the database. */
  lostIds: string[];
  /** Submissions received under two or more different webhook-id values. */
  duplicated: number;
  /** Extra receipts of the same submission under the same webhook-id (at-least-once retries). */
  redelivered: number;
  badSignatures: number;
  /** First receipt at the receiver minus the ingest answer, per submission. */
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  /** Receipts (first ones) per second, from the first receipt to the last. */
  deliveriesPerS: number;
  spanS: number;
};

/** Matches receipts to submissions: latency, losses, duplicates and signatures. */
export function deliveryStats(submitted: Submitted[], receipts: Receipt[]): DeliveryStats {
  const byId = new Map<string, Receipt[]>();
  for (const s of submitted) byId.set(s.id, []);
  for (const r of receipts) if (r.submissionId !== null) byId.get(r.submissionId)?.push(r);

  const latencies: number[] = [];
  const firstAt: number[] = [];
  const lostIds: string[] = [];
  let duplicated = 0;
  let redelivered = 0;
  let badSignatures = 0;
  for (const s of submitted) {
    const got = byId.get(s.id) ?? [];
    if (got.length === 0) {
      lostIds.push(s.id);
      continue;
    }
    const first = Math.min(...got.map((r) => r.at));
    firstAt.push(first);
    latencies.push(first - s.answeredAt);
    const deliveryIds = new Set(got.map((r) => r.webhookId));
    if (deliveryIds.size > 1) duplicated++;
    redelivered += got.length - deliveryIds.size;
    badSignatures += got.filter((r) => !r.signatureOk).length;
  }
  const spanS = firstAt.length > 1 ? (Math.max(...firstAt) - Math.min(...firstAt)) / 1000 : 0;
  return {
    submitted: submitted.length,
    received: firstAt.length,
    lost: lostIds.length,
    lostIds,
    duplicated,
    redelivered,
    badSignatures,
    latencyMs: {
      p50: round(percentile(latencies, 50)),
      p90: round(percentile(latencies, 90)),
      p99: round(percentile(latencies, 99)),
      max: round(latencies.reduce((a, b) => Math.max(a, b), 0)),
    },
    deliveriesPerS: spanS > 0 ? round((firstAt.length - 1) / spanS, 1) : 0,
    spanS: round(spanS, 2),
  };
}
