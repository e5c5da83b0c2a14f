import type { AnswerReading } from '../delivery/answer-reading';

/*
 * What an Airtable answer means for a delivery (docs/plugins.md, "airtable"): the delivery
 * log's words, and whether trying again could help. Airtable's errors are
 * `{"error": {"type", "message"}}` (or `{"error": "NOT_FOUND"}`).
 */

/** Airtable asks a client it answered 429 to wait 30 seconds. */
export const AIRTABLE_RATE_LIMIT_WAIT_MS = 30_000;

const MAX_MESSAGE = 300;

function airtableError(body: string | null): { type: string; message: string } {
  try {
    const parsed = JSON.parse(body ?? '') as { error?: unknown };
    const error = parsed.error;
    if (typeof error === 'string') return { type: error, message: '' };
    if (error && typeof error === 'object') {
      const { type, message } = error as { type?: unknown; message?: unknown };
      return {
        type: typeof type === 'string' ? type : '',
        message: typeof message === 'string' ? message.slice(0, MAX_MESSAGE) : '',
      };
    }
  } catch {
    // not JSON (a proxy's page): the status alone speaks
  }
  return { type: '', message: '' };
}

/** The field names an `UNKNOWN_FIELD_NAME` message quotes: `Unknown field name: "Phone"`. */
export function unknownFieldNames(message: string): string[] {
  return [...message.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => match[1]!);
}

/** The delivery log's reading of a failed answer, with the table it was for. */
export function readAirtableAnswer(
  statusCode: number,
  body: string | null,
  target: { base: string; table: string },
): AnswerReading {
  const { type, message } = airtableError(body);
  const code = `${statusCode}${type ? ` ${type}` : ''}`;
  const said = message ? `: ${message}` : '';
  if (statusCode === 401)
    return {
      error: `Airtable refused the token (${code}): it is mistyped, revoked or expired; add the plugin again with a valid personal access token`,
      permanent: true,
    };
  if (statusCode === 402)
    return {
      error: `the Airtable workspace has used up its API calls (${code})${said}`,
      permanent: true,
    };
  if (statusCode === 403 || statusCode === 404)
    return {
      error: `Airtable found no table "${target.table}" in base ${target.base} that the token may write to (${code}): check the ids, the token's data.records:write scope and its access to the base`,
      permanent: true,
    };
  if (type === 'UNKNOWN_FIELD_NAME') {
    const names = unknownFieldNames(message);
    const list = names.length > 0 ? names.map((name) => `"${name}"`).join(', ') : '(unnamed)';
    return {
      error: `the Airtable table has no field ${list} (${code}): add the column, or leave the field out of this plugin, then recover the failed deliveries`,
      permanent: true,
    };
  }
  if (statusCode === 400 || statusCode === 413 || statusCode === 422)
    return { error: `Airtable refused the record (${code})${said}`, permanent: true };
  if (statusCode === 429)
    return {
      error: `Airtable is rate limiting (${code}; 5 requests a second per base): retried later`,
      permanent: false,
    };
  return { error: `Airtable answered ${code}${said}`, permanent: false };
}
