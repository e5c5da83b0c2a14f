import type { SendResult } from '../../outbound/sender';
import type { AnswerReading } from './answer-reading';
import type { AttemptResult } from './attempt';
import { withoutSecrets } from './secret-free-result';

/** The attempt's result as recorded, and whether it ends the delivery. */
export type RecordedAnswer = { result: AttemptResult; permanent: boolean };

/**
 * An API's answer as the attempt records it (Airtable, Notion): a refusal in the provider's
 * words and whether it is for good, the token replaced wherever the answer might echo it. A
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
  const result = withoutSecrets({ ...sent, error: reading?.error ?? sent.error }, [token]);
  return { result, permanent: reading?.permanent ?? sent.failure === 'blocked_address' };
}
