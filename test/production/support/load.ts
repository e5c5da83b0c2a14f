import { request } from '../../support/api-client';
import {
  serviceSignatureValid,
  standardSignatureValid,
  type ReceivedWebhook,
} from '../../support/https-receiver';

/** What the service answered to the n-th submission: its id when it accepted it. */
export type Answer = { n: number; status: number; id?: string; error?: string };

/** POSTs one JSON submission to a serve process's /json/{token}. */
export async function postJsonTo(
  baseUrl: string,
  token: string,
  payload: Record<string, unknown>,
): Promise<{ status: number; id?: string }> {
  const res = await request('POST', `${baseUrl}/json/${token}`, {
    body: JSON.stringify(payload),
    headers: { 'content-type': 'application/json' },
  });
  const body = res.body as { ok?: boolean; id?: string } | null;
  return { status: res.status, id: res.status === 200 && body?.ok ? String(body.id) : undefined };
}

/**
 * Sends `rate` submissions a second for `seconds`, each on its own schedule (an open load:
 * a slow answer does not hold the next one back), and collects every answer.
 */
export async function paceLoad(options: {
  rate: number;
  seconds: number;
  send: (n: number) => Promise<{ status: number; id?: string }>;
}): Promise<Answer[]> {
  const total = options.rate * options.seconds;
  const started = performance.now();
  const pending: Promise<Answer>[] = [];
  for (let n = 0; n < total; n++) {
    const due = started + (n * 1000) / options.rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(
      options.send(n).then(
        (answer) => ({ n, ...answer }),
        (error: Error) => ({ n, status: 0, error: error.message }),
      ),
    );
  }
  return Promise.all(pending);
}

/** Waits until the requests `received` returns hold a delivery of every submission in `ids`. */
export async function waitForDeliveries(
  received: () => ReceivedWebhook[],
  ids: string[],
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const delivered = new Set(received().map((request) => submissionIdOf(request)));
    const missing = ids.filter((id) => !delivered.has(id));
    if (missing.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(
        `no delivery of ${missing.length} submissions: ${missing.slice(0, 20).join(', ')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const submissionIdOf = (request: ReceivedWebhook) =>
  String((JSON.parse(request.body) as { id: string | number }).id);

/**
 * The figures of a run: offered, accepted (answered 200 with an id), refused, lost (accepted
 * but not stored, or stored but never delivered), duplicates (requests beyond the first for a
 * submission), and what broke a promise.
 */
export function tally(run: {
  answers: Answer[];
  stored: Set<string>;
  received: ReceivedWebhook[];
  secret: string;
}) {
  const acceptedIds = run.answers.flatMap((answer) => (answer.id ? [answer.id] : []));
  const bySubmission = new Map<string, ReceivedWebhook[]>();
  for (const request of run.received) {
    const id = submissionIdOf(request);
    bySubmission.set(id, [...(bySubmission.get(id) ?? []), request]);
  }
  const notStored = acceptedIds.filter((id) => !run.stored.has(id));
  const undelivered = acceptedIds.filter((id) => !bySubmission.has(id));
  return {
    offered: run.answers.length,
    accepted: acceptedIds.length,
    refused: run.answers.length - acceptedIds.length,
    refusals: run.answers.filter((answer) => !answer.id),
    lost: new Set([...notStored, ...undelivered]).size,
    duplicates: run.received.length - bySubmission.size,
    notStored,
    undelivered,
    badSignatures: run.received.filter(
      (request) =>
        !serviceSignatureValid(request, run.secret) || !standardSignatureValid(request, run.secret),
    ).length,
    splitWebhookIds: [...bySubmission].flatMap(([id, requests]) =>
      new Set(requests.map((request) => request.headers['webhook-id'])).size > 1 ? [id] : [],
    ),
    deliveredNotStored: [...bySubmission.keys()].filter((id) => !run.stored.has(id)),
  };
}
