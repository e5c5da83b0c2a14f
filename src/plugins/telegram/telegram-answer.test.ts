import { describe, expect, it } from 'vitest';
import { withoutSecrets, SECRET_PLACEHOLDER } from '../delivery/secret-free-result';
import { readTelegramAnswer } from './telegram-answer';
import type { SendResult } from '../../outbound/sender';

const answered = (
  statusCode: number,
  body: unknown,
  extra: Partial<SendResult> = {},
): SendResult => ({
  ok: statusCode >= 200 && statusCode < 300,
  statusCode,
  responseBody: typeof body === 'string' ? body : JSON.stringify(body),
  error: statusCode < 300 ? null : `receiver answered ${statusCode}`,
  failure: statusCode < 300 ? null : 'http_status',
  durationMs: 5,
  retryAfterMs: null,
  ...extra,
});

describe('reading what Telegram answered', () => {
  it('a 2xx is a delivery, even when its echo of the message was stored cut, unless it says ok: false', () => {
    expect(readTelegramAnswer(answered(200, { ok: true, result: {} }))).toMatchObject({
      result: { ok: true, error: null },
      permanent: false,
    });
    const cut = JSON.stringify({ ok: true, result: { text: 'x'.repeat(5000) } }).slice(0, 4096);
    expect(readTelegramAnswer(answered(200, cut)).result.ok).toBe(true);
    expect(readTelegramAnswer(answered(200, { ok: false, description: '?' }))).toMatchObject({
      result: { ok: false, error: 'Telegram answered `ok: false` with a success status' },
      permanent: false,
    });
  });

  it('a 429 waits for the longer of the body’s retry_after and Retry-After', () => {
    const flood = {
      ok: false,
      error_code: 429,
      description: 'Too Many Requests: retry after 7',
      parameters: { retry_after: 7 },
    };
    expect(readTelegramAnswer(answered(429, flood))).toMatchObject({
      result: { ok: false, retryAfterMs: 7000, error: 'Telegram asked to wait (429): 7 s' },
      permanent: false,
    });
    expect(
      readTelegramAnswer(answered(429, flood, { retryAfterMs: 9000 })).result.retryAfterMs,
    ).toBe(9000);
    expect(
      readTelegramAnswer(answered(429, 'busy', { retryAfterMs: 3000 })).result.retryAfterMs,
    ).toBe(3000);
    expect(readTelegramAnswer(answered(429, 'busy')).result.retryAfterMs).toBeNull();
  });

  it('a refused token, a blocked bot and an unknown chat end the delivery with a reason', () => {
    const refused = (status: number, description: string, parameters?: object) =>
      readTelegramAnswer(
        answered(status, { ok: false, error_code: status, description, parameters }),
      );
    const token = refused(401, 'Unauthorized');
    expect(token.permanent).toBe(true);
    expect(token.result.error).toBe(
      'Telegram refused the bot token (401: Unauthorized): it was revoked or mistyped; add a new plugin with a valid token',
    );
    expect(refused(404, 'Not Found').result.error).toMatch(/refused the bot token \(404/);
    const blocked = refused(403, 'Forbidden: bot was kicked from the supergroup chat');
    expect(blocked).toMatchObject({ permanent: true });
    expect(blocked.result.error).toBe(
      'Telegram refused (403): Forbidden: bot was kicked from the supergroup chat; add the bot to the chat again (an administrator in a channel)',
    );
    const chat = refused(400, 'Bad Request: chat not found');
    expect(chat.permanent).toBe(true);
    expect(chat.result.error).toBe(
      'Telegram refused (400): Bad Request: chat not found; check the chat id, and that the bot was added to the chat',
    );
    const moved = refused(400, 'Bad Request: group chat was upgraded to a supergroup chat', {
      migrate_to_chat_id: -1001234,
    });
    expect(moved.result.error).toMatch(/the group's chat id is now -1001234/);
    expect(refused(400, 'x'.repeat(5000)).result.error!.length).toBeLessThan(300);
  });

  it('5xx and network failures are retried; a refused address is not', () => {
    expect(readTelegramAnswer(answered(502, 'bad gateway'))).toMatchObject({
      result: { error: 'Telegram answered 502' },
      permanent: false,
    });
    const network: SendResult = {
      ...answered(500, ''),
      statusCode: null,
      responseBody: null,
      error: 'ECONNRESET',
      failure: 'network',
    };
    expect(readTelegramAnswer(network)).toEqual({ result: network, permanent: false });
    const blocked = {
      ...network,
      error: 'refusing to connect',
      failure: 'blocked_address' as const,
    };
    expect(readTelegramAnswer(blocked).permanent).toBe(true);
  });
});

describe('results without secrets', () => {
  it('replaces a token and a signed URL, however a URL spells them, in errors and answers', () => {
    const token = '123456789:AAbbCCddEEffGGhhIIjjKKllMMnnOOppQQr';
    const url = `https://api.telegram.org/bot${token}/sendMessage`;
    const result = withoutSecrets(
      answered(302, `moved: ${url} and bot${encodeURIComponent(token)}`, {
        error: `redirect to ${url} not followed`,
      }),
      [url, token],
    );
    expect(result.error).toBe(`redirect to ${SECRET_PLACEHOLDER} not followed`);
    expect(result.responseBody).toBe(`moved: ${SECRET_PLACEHOLDER} and bot${SECRET_PLACEHOLDER}`);
    expect(withoutSecrets(answered(200, 'ok'), ['short', '']).responseBody).toBe('ok');
  });
});
