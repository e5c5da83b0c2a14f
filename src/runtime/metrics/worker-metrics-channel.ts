import type { ChildProcess } from 'node:child_process';
import { collectExposition, type ProcessExposition } from './exposition';

/**
 * How the HTTP process of `formward start` reads its worker process's metrics at scrape time
 * (docs/metrics.md): a request and its answer on the IPC channel the supervisor already has
 * with the child (src/cli/worker-supervisor.ts). No port to allocate, none another local user
 * could read, and a dead child answers at once (its channel closes) instead of at the timeout.
 */

const REQUEST = 'formward-metrics-request';
const ANSWER = 'formward-metrics';

type Request = { type: typeof REQUEST; id: number };
type Answer = { type: typeof ANSWER; id: number; exposition: ProcessExposition | null };

const isRequest = (message: unknown): message is Request =>
  (message as Request | null)?.type === REQUEST;
const isAnswer = (message: unknown): message is Answer =>
  (message as Answer | null)?.type === ANSWER;

/** In the worker process: answers its parent's requests; returns the stop. */
export function answerMetricsRequests(): () => void {
  const answer = (message: unknown) => {
    if (!isRequest(message)) return;
    const send = (exposition: ProcessExposition | null) =>
      process.send?.({ type: ANSWER, id: message.id, exposition } satisfies Answer);
    collectExposition().then(send, () => send(null));
  };
  process.on('message', answer);
  return () => process.off('message', answer);
}

/** How long a scrape waits for the worker process's metrics (docs/metrics.md). */
export const WORKER_METRICS_TIMEOUT_MS = 2_000;

let lastId = 0;

/**
 * In the parent: the child's metrics, or null when it does not answer within `timeoutMs`
 * (stopped, busy, restarting), exits meanwhile, or could not collect them.
 */
export function requestWorkerMetrics(
  child: ChildProcess,
  timeoutMs = WORKER_METRICS_TIMEOUT_MS,
): Promise<ProcessExposition | null> {
  if (!child.connected) return Promise.resolve(null);
  const id = ++lastId;
  return new Promise((resolve) => {
    const finish = (exposition: ProcessExposition | null) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('disconnect', onGone);
      resolve(exposition);
    };
    // An answer to an earlier request that timed out arrives late and is ignored here.
    const onMessage = (message: unknown) => {
      if (isAnswer(message) && message.id === id) finish(message.exposition);
    };
    const onGone = () => finish(null);
    const timer = setTimeout(onGone, timeoutMs);
    child.on('message', onMessage);
    child.once('disconnect', onGone);
    child.send({ type: REQUEST, id } satisfies Request, (error) => error && onGone());
  });
}
