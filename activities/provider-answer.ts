import type { SendResult } from '../src/domain/webhooks/webhook-sender';
import { withoutSecret, type AnswerReading } from '../src/domain/plugins/provider-answer';
import type { AttemptResult } from './plugin-attempt';

/** The attempt's result as recorded, and whether it ends the delivery. */
export type RecordedAnswer = { result: AttemptResult; permanent: boolean };

/**
 * An API's answer as the attempt records it (Airtable, Notion): a refusal in the provider's
 * words and whether it is for good, the token masked wherever the answer might echo it. A
 * network failure, timeout or redirect is retried; a refused address (SSRF rule) is not.
 */
export function recordedAnswer(
  sent: SendResult,
  token: string,
  read: (statusCode: number, body: string | null) => AnswerReading,
): RecordedAnswer {
  const reading =
    !sent.ok && sent.failure === 'http_status' && sent.statusCode !== null
      ? read(sent.statusCode, sent.responseBody)
      : null;
  const result: AttemptResult = {
    ...sent,
    error: withoutSecret(reading?.error ?? sent.error, token),
    responseBody: withoutSecret(sent.responseBody, token),
  };
  return { result, permanent: reading?.permanent ?? sent.failure === 'blocked_address' };
}
