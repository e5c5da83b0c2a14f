import { randomBytes } from 'node:crypto';
import { startHttpsReceiver, type ReceivedWebhook, type Reply } from './https-receiver';
import type { TestCertificates } from './test-ca';

// Shared by the test suites: no test-runner imports here.

const ADAPTIVE_CARD = 'application/vnd.microsoft.card.adaptive';

/** A card a fake workflow accepted, with every TextRun's text in order. */
export type AcceptedCard = {
  request: ReceivedWebhook;
  card: Record<string, unknown>;
  texts: string[];
};

/** Answers a test may make the workflow give instead of 202, request by request. */
export const teamsAnswers = {
  throttled: (seconds: number): Reply => ({
    status: 429,
    headers: { 'retry-after': String(seconds), 'content-type': 'application/json' },
    body: JSON.stringify({ error: { code: 'WorkflowRequestsThrottled', message: 'Rate limit.' } }),
  }),
  serverError: (): Reply => ({ status: 502, body: 'bad gateway' }),
  notFound: (): Reply => ({
    status: 404,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      error: { code: 'WorkflowNotFound', message: 'The workflow could not be found.' },
    }),
  }),
};

const json = (status: number, code: string, message: string): Reply => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ error: { code, message } }),
});

/** Every problem a Teams workflow would refuse the message for, empty when it is a card. */
function cardProblems(request: ReceivedWebhook): {
  problems: string[];
  card?: Record<string, unknown>;
} {
  if (!String(request.headers['content-type'] ?? '').startsWith('application/json'))
    return { problems: ['content-type is not application/json'] };
  let body: { type?: unknown; attachments?: unknown };
  try {
    body = JSON.parse(request.body) as typeof body;
  } catch {
    return { problems: ['the body is not JSON'] };
  }
  const problems: string[] = [];
  if (body.type !== 'message') problems.push('type is not "message"');
  const attachments = Array.isArray(body.attachments) ? body.attachments : [];
  if (attachments.length !== 1) problems.push('not exactly one attachment');
  const attachment = (attachments[0] ?? {}) as { contentType?: unknown; content?: unknown };
  if (attachment.contentType !== ADAPTIVE_CARD)
    problems.push(`contentType is not ${ADAPTIVE_CARD}`);
  const card = (attachment.content ?? {}) as Record<string, unknown>;
  if (card.type !== 'AdaptiveCard') problems.push('content.type is not AdaptiveCard');
  if (typeof card.version !== 'string' || !/^1\.[0-5]$/.test(card.version))
    problems.push('content.version is not 1.0 to 1.5');
  if (!Array.isArray(card.body) || card.body.length === 0) problems.push('content.body is empty');
  if (Buffer.byteLength(request.body) > 28 * 1024) problems.push('the message is over 28 KB');
  return { problems, card };
}

/** The text of every TextRun and TextBlock of a card, in order. */
function textsOf(card: Record<string, unknown>): string[] {
  const texts: string[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const element = node as Record<string, unknown>;
    if (
      (element.type === 'TextRun' || element.type === 'TextBlock') &&
      typeof element.text === 'string'
    )
      texts.push(element.text);
    for (const value of Object.values(element)) walk(value);
  };
  walk(card.body);
  return texts;
}

/**
 * A Microsoft Teams workflow ("When a Teams webhook request is received") on 127.0.0.1,
 * HTTPS with the test CA. Its `url` carries a `sig`; a request without that `sig` gets 401,
 * a message that is not one Adaptive Card gets 400, anything else 202 Accepted unless the
 * test queued other answers (`answerNext`). Refusals quote the request's target, as a
 * careless proxy would: what Formward records of them must not.
 */
export async function startFakeTeams(certificates: TestCertificates) {
  const sig = randomBytes(24).toString('base64url');
  const workflow = randomBytes(8).toString('hex');
  const path = `/workflows/${workflow}/triggers/manual/paths/invoke`;
  const queued: Reply[] = [];
  const accepted: AcceptedCard[] = [];
  const receiver = await startHttpsReceiver(certificates, (request) => {
    const target = new URL(request.path, 'https://fake.invalid');
    if (request.method !== 'POST' || target.pathname !== path)
      return json(404, 'WorkflowNotFound', `no workflow at ${request.path}`);
    if (target.searchParams.get('sig') !== sig)
      return json(401, 'DirectApiAuthorizationRequired', `bad signature for ${request.path}`);
    const next = queued.shift();
    if (next) return next;
    const { problems, card } = cardProblems(request);
    if (problems.length > 0) return json(400, 'InvalidRequestContent', problems.join('; '));
    accepted.push({ request, card: card!, texts: textsOf(card!) });
    return { status: 202, body: '' };
  });
  return {
    /** The workflow's URL, `sig` included: the plugin's secret. */
    url: `${receiver.url}${path}?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${sig}`,
    sig,
    host: `127.0.0.1:${receiver.port}`,
    received: receiver.received,
    accepted,
    waitFor: receiver.waitFor,
    /** The next requests (with a valid `sig`) get these answers, in order. */
    answerNext: (...replies: Reply[]) => queued.push(...replies),
    close: receiver.close,
  };
}

export type FakeTeams = Awaited<ReturnType<typeof startFakeTeams>>;
