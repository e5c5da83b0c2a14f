import type { SendResult } from '../../outbound/sender';

/*
 * What Telegram's Bot API answered (core.telegram.org/bots/api#making-requests):
 * `{ok, result}` or `{ok: false, error_code, description, parameters?}`. A flood limit is a
 * 429 with `parameters.retry_after` (seconds) in the body, and perhaps `Retry-After` too.
 */

type BotApiAnswer = {
  ok?: unknown;
  description?: unknown;
  parameters?: { retry_after?: unknown; migrate_to_chat_id?: unknown };
};

/** The answer read: the result to record, and whether no retry can change it. */
export type ReadTelegramAnswer = { result: SendResult; permanent: boolean };

const MAX_DESCRIPTION = 200;

function parsed(body: string | null): BotApiAnswer {
  try {
    const value: unknown = JSON.parse(body ?? '');
    return value && typeof value === 'object' ? (value as BotApiAnswer) : {};
  } catch {
    return {};
  }
}

/** Telegram's own words, one line, short; our advice where it is a known refusal. */
function refusal(status: number, answer: BotApiAnswer): string {
  const said =
    typeof answer.description === 'string'
      ? answer.description.replace(/\s+/g, ' ').trim().slice(0, MAX_DESCRIPTION)
      : `HTTP ${status}`;
  const migrated = answer.parameters?.migrate_to_chat_id;
  if (typeof migrated === 'number' || typeof migrated === 'string')
    return `Telegram refused (${status}): ${said}; the group's chat id is now ${migrated}: add a new plugin with it`;
  if (status === 401 || status === 404)
    return `Telegram refused the bot token (${status}: ${said}): it was revoked or mistyped; add a new plugin with a valid token`;
  if (status === 403)
    return `Telegram refused (403): ${said}; add the bot to the chat again (an administrator in a channel)`;
  if (/chat not found/i.test(said))
    return `Telegram refused (${status}): ${said}; check the chat id, and that the bot was added to the chat`;
  return `Telegram refused (${status}): ${said}`;
}

/**
 * The sender's result as a Telegram delivery records it. Success is a 2xx not saying `ok: false`; a
 * 429 waits for the longer of `Retry-After` and the body's `retry_after`; any other 4xx (bad
 * token, bot blocked or removed, chat not found, a refused message) ends the delivery with
 * Telegram's reason; 5xx and network failures are retried.
 */
export function readTelegramAnswer(sent: SendResult): ReadTelegramAnswer {
  if (sent.failure === 'blocked_address') return { result: sent, permanent: true };
  const status = sent.statusCode;
  if (status === null) return { result: sent, permanent: false };
  const answer = parsed(sent.responseBody);
  // The answer echoes the message, so past 4 KB it is stored cut and no longer parses: a 2xx
  // is a delivery unless it says otherwise (a retry would post the message twice).
  if (sent.ok) {
    if (answer.ok !== false) return { result: sent, permanent: false };
    const error = 'Telegram answered `ok: false` with a success status';
    return { result: { ...sent, ok: false, error, failure: 'http_status' }, permanent: false };
  }
  if (status === 429) {
    const seconds = Number(answer.parameters?.retry_after);
    const fromBody = Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1000) : null;
    const retryAfterMs =
      fromBody === null ? (sent.retryAfterMs ?? null) : Math.max(fromBody, sent.retryAfterMs ?? 0);
    const error = `Telegram asked to wait (429)${retryAfterMs === null ? '' : `: ${Math.ceil(retryAfterMs / 1000)} s`}`;
    return { result: { ...sent, error, retryAfterMs }, permanent: false };
  }
  if (status >= 400 && status < 500) {
    return { result: { ...sent, error: refusal(status, answer) }, permanent: true };
  }
  return { result: { ...sent, error: `Telegram answered ${status}` }, permanent: false };
}
