import type { SendResult } from '../src/domain/webhooks/webhook-sender';

/** What stands in for a secret found in an error or an answer. */
export const SECRET_PLACEHOLDER = '[secret]';

/**
 * A send's result with every given secret (a bot token, a signed URL and its `sig`, in the
 * forms a URL may spell them) replaced, before it is recorded, logged or thrown: the
 * delivery log, Temporal's history and the logs never see them, whatever an error or a
 * receiver's answer echoes (a redirect's `Location`, a proxy quoting the request line).
 */
export function withoutSecrets(result: SendResult, secrets: readonly string[]): SendResult {
  const spelled = new Set<string>();
  for (const secret of secrets) {
    // Short strings would match ordinary text: a secret is never that short.
    if (secret.length < 8) continue;
    spelled.add(secret);
    spelled.add(encodeURIComponent(secret));
    try {
      spelled.add(decodeURIComponent(secret));
    } catch {
      // Not percent-encoded: nothing more to add.
    }
  }
  // Longest first, so a URL is replaced whole before the token inside it.
  const ordered = [...spelled].sort((a, b) => b.length - a.length);
  const scrub = (text: string | null) =>
    text === null ? null : ordered.reduce((out, s) => out.replaceAll(s, SECRET_PLACEHOLDER), text);
  return { ...result, error: scrub(result.error), responseBody: scrub(result.responseBody) };
}
