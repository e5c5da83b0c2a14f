import { randomBytes } from 'node:crypto';
import { startHttpsReceiver, type ReceivedWebhook, type Reply } from './https-receiver';
import type { TestCertificates } from './test-ca';

// Shared by the test suites: no test-runner imports here.

/** A message the fake Bot API accepted, with its text as a Telegram user would see it. */
export type SentMessage = { request: ReceivedWebhook; chatId: string; html: string; text: string };

const answer = (
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Reply => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

const refusal = (
  status: number,
  description: string,
  parameters?: Record<string, unknown>,
  retryAfterHeader?: number,
) =>
  answer(
    status,
    { ok: false, error_code: status, description, ...(parameters && { parameters }) },
    retryAfterHeader === undefined ? {} : { 'retry-after': String(retryAfterHeader) },
  );

/** Answers a test may make the Bot API give instead of sending, request by request. */
export const telegramAnswers = {
  /** A flood limit: `retry_after` in the body, and `Retry-After` only when given. */
  flood: (retryAfter: number, header?: number): Reply =>
    refusal(
      429,
      `Too Many Requests: retry after ${retryAfter}`,
      { retry_after: retryAfter },
      header,
    ),
  blocked: (): Reply => refusal(403, 'Forbidden: bot was kicked from the supergroup chat'),
  serverError: (): Reply => ({ status: 502, body: '<html>Bad Gateway</html>' }),
};

const TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'code',
  'pre',
  'tg-spoiler',
]);
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

/**
 * Telegram's HTML mode (core.telegram.org/bots/api#html-style) read strictly: known tags,
 * balanced; `&lt;`, `&gt;`, `&amp;`, `&quot;` and numeric entities; a bare `<`, `>` or `&`
 * refused. Returns the text as shown, or the reason Telegram gives.
 */
export function parseTelegramHtml(html: string): { text: string } | { error: string } {
  const open: string[] = [];
  let text = '';
  for (let i = 0; i < html.length;) {
    const rest = html.slice(i);
    if (rest.startsWith('<')) {
      const tag = /^<(\/?)([a-z-]+)>/.exec(rest);
      if (!tag || !TAGS.has(tag[2]!)) return { error: `Unsupported start tag at byte offset ${i}` };
      if (tag[1]) {
        if (open.pop() !== tag[2]) return { error: `Unmatched end tag at byte offset ${i}` };
      } else open.push(tag[2]!);
      i += tag[0].length;
    } else if (rest.startsWith('&')) {
      const entity = /^&(lt|gt|amp|quot|#\d{1,7});/.exec(rest);
      if (!entity) return { error: `Unsupported entity at byte offset ${i}` };
      const name = entity[1]!;
      text += name.startsWith('#') ? String.fromCodePoint(Number(name.slice(1))) : ENTITIES[name];
      i += entity[0].length;
    } else if (rest.startsWith('>')) {
      return { error: `Unexpected end tag at byte offset ${i}` };
    } else {
      text += html[i];
      i++;
    }
  }
  return open.length > 0
    ? { error: `Can't find end tag corresponding to start tag "${open.at(-1)}"` }
    : { text };
}

/**
 * Telegram's Bot API on 127.0.0.1, HTTPS with the test CA (`url` is TELEGRAM_API_URL). It
 * knows one bot (`token`) and the chats it was given; `sendMessage` is checked as Telegram
 * does: an unknown token 401, an unknown chat 400 `chat not found`, `parse_mode` HTML,
 * the HTML itself, 4096 characters of text. Tests may queue other answers (`answerNext`).
 */
export async function startFakeTelegram(certificates: TestCertificates, chats: string[]) {
  const token = `${1_000_000 + Math.floor(Math.random() * 1e9)}:${randomBytes(27).toString('base64url').slice(0, 35)}`;
  const queued: Reply[] = [];
  const sent: SentMessage[] = [];
  const receiver = await startHttpsReceiver(certificates, (request) => {
    const route = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(request.path);
    if (!route || route[1] !== token) return refusal(401, 'Unauthorized');
    if (route[2] !== 'sendMessage' || request.method !== 'POST') return refusal(404, 'Not Found');
    const next = queued.shift();
    if (next) return next;
    if (!String(request.headers['content-type'] ?? '').startsWith('application/json'))
      return refusal(400, 'Bad Request: message text is empty');
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(request.body) as Record<string, unknown>;
    } catch {
      return refusal(400, 'Bad Request: invalid JSON');
    }
    const chatId = String(body.chat_id ?? '');
    if (!chats.includes(chatId)) return refusal(400, 'Bad Request: chat not found');
    if (body.parse_mode !== 'HTML') return refusal(400, 'Bad Request: expected parse_mode HTML');
    const preview = body.link_preview_options as { is_disabled?: unknown } | undefined;
    if (preview?.is_disabled !== true)
      return refusal(400, 'Bad Request: link previews must be off');
    const html = typeof body.text === 'string' ? body.text : '';
    const parsed = parseTelegramHtml(html);
    if ('error' in parsed)
      return refusal(400, `Bad Request: can't parse entities: ${parsed.error}`);
    if (parsed.text.trim() === '') return refusal(400, 'Bad Request: message text is empty');
    if (parsed.text.length > 4096) return refusal(400, 'Bad Request: message is too long');
    sent.push({ request, chatId, html, text: parsed.text });
    return answer(200, {
      ok: true,
      result: {
        message_id: sent.length,
        chat: { id: chatId },
        date: Math.floor(Date.now() / 1000),
        text: parsed.text,
      },
    });
  });
  return {
    /** TELEGRAM_API_URL for a stack that talks to this fake. */
    url: receiver.url,
    token,
    received: receiver.received,
    sent,
    waitFor: receiver.waitFor,
    /** The next requests (with the right token) get these answers, in order. */
    answerNext: (...replies: Reply[]) => queued.push(...replies),
    close: receiver.close,
  };
}

export type FakeTelegram = Awaited<ReturnType<typeof startFakeTelegram>>;
