import type { TestStack } from './test-stack';

/**
 * The delivery tests' environment: receivers on 127.0.0.1, one-second timeouts, and retries
 * after 1 s, 2 s, 4 s (Temporal schedules retries with about one-second resolution).
 */
export const FAST_DELIVERY_ENV = {
  WEBHOOK_ALLOW_PRIVATE: '127.0.0.1',
  WEBHOOK_RETRY_INITIAL_INTERVAL: '1s',
  WEBHOOK_RETRY_BACKOFF_COEFFICIENT: '2',
  WEBHOOK_CONNECT_TIMEOUT: '1s',
  WEBHOOK_READ_TIMEOUT: '1s',
};

export type AttemptRecord = {
  delivery_id: string;
  plugin_id: string;
  attempt: number;
  status: 'succeeded' | 'failed' | 'pending_retry';
  http_status: number | null;
  error: string | null;
  response_body: string | null;
  is_replay: boolean;
  is_test: boolean;
  workflow_id: string;
};

/** The delivery records of a submission, oldest attempt first. */
export async function attemptsOf(stack: TestStack, submissionId: string): Promise<AttemptRecord[]> {
  return stack.sql<AttemptRecord>(
    `select delivery_id, plugin_id::text, attempt, status, http_status, error, response_body,
            is_replay, is_test, workflow_id
       from delivery_attempts where submission_id = ? order by started_at, id`,
    [submissionId],
  );
}

/** Waits until a submission has `count` delivery records, the last of them final. */
export async function waitForAttempts(
  stack: TestStack,
  submissionId: string,
  count: number,
  timeoutMs = 30_000,
): Promise<AttemptRecord[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const attempts = await attemptsOf(stack, submissionId);
    if (attempts.length >= count && attempts.at(-1)?.status !== 'pending_retry') return attempts;
    if (Date.now() > deadline) {
      throw new Error(
        `submission ${submissionId}: ${attempts.length} attempts (${attempts.map((a) => a.status).join(', ')}), expected ${count}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The environment of a stack that delivers to receivers on 127.0.0.1 through a test DNS
 * server, with timeouts of 1 s and fast retries (Temporal schedules retries with about
 * one-second resolution: 1 s, 2 s, 4 s).
 */
export function fastDeliveryEnv(dnsAddress: string): Record<string, string> {
  return {
    ...FAST_DELIVERY_ENV,
    DNS_SERVERS: dnsAddress,
  };
}
