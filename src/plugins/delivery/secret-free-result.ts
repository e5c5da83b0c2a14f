/** What stands in for a secret found in an error or an answer. */
export const SECRET_PLACEHOLDER = '[secret]';

/**
 * A send's result with every given secret (a bot token, a header's value, a signed URL, in the
 * forms a URL may spell them) replaced, before it is recorded, logged or thrown: the
 * delivery log, Temporal's history and the logs never see them, whatever an error or a
 * receiver's answer echoes (a redirect's `Location`, a proxy quoting the request line).
 */
export function withoutSecrets<T extends { error: string | null; responseBody: string | null }>(
  result: T,
  secrets: readonly string[],
): T {
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
  return {
    ...result,
    error: scrub(result.error),
    responseBody: withoutCutSecret(scrub(result.responseBody), ordered),
  };
}

/** A stored answer is cut at 4096 bytes: a secret's start left at its very end goes too. */
function withoutCutSecret(text: string | null, secrets: readonly string[]): string | null {
  if (text === null) return null;
  for (const secret of secrets) {
    for (let length = Math.min(secret.length - 1, text.length); length >= 8; length--) {
      if (text.endsWith(secret.slice(0, length)))
        return `${text.slice(0, text.length - length)}${SECRET_PLACEHOLDER}`;
    }
  }
  return text;
}
