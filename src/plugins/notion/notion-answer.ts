import type { AnswerReading } from '../delivery/answer-reading';

/*
 * What a Notion answer means for a delivery (docs/plugins.md, "notion"): the delivery log's
 * words, and whether trying again could help. Notion's errors are
 * `{"object": "error", "status", "code", "message"}`.
 */

const MAX_MESSAGE = 300;

function notionError(body: string | null): { code: string; message: string } {
  try {
    const parsed = JSON.parse(body ?? '') as { code?: unknown; message?: unknown };
    return {
      code: typeof parsed.code === 'string' ? parsed.code : '',
      message: typeof parsed.message === 'string' ? parsed.message.slice(0, MAX_MESSAGE) : '',
    };
  } catch {
    return { code: '', message: '' }; // not JSON (a proxy's page): the status alone speaks
  }
}

/** The delivery log's reading of a failed answer to reading the database or adding the page. */
export function readNotionAnswer(
  statusCode: number,
  body: string | null,
  databaseId: string,
): AnswerReading {
  const { code, message } = notionError(body);
  const status = `${statusCode}${code ? ` ${code}` : ''}`;
  const said = message ? `: ${message}` : '';
  if (statusCode === 401)
    return {
      error: `Notion refused the integration secret (${status}): it is mistyped or the integration was deleted; add the plugin again with a valid secret`,
      permanent: true,
    };
  if (statusCode === 404)
    return {
      error: `the database ${databaseId} does not exist or is not shared with the integration (${status}): in Notion, open the database's ••• menu, Connections, and add the integration`,
      permanent: true,
    };
  if (statusCode === 403)
    return {
      error: `the integration may not add pages to the database (${status}): give it the read content and insert content capabilities${said}`,
      permanent: true,
    };
  if (statusCode === 400 || statusCode === 413 || statusCode === 422)
    return { error: `Notion refused the request (${status})${said}`, permanent: true };
  if (statusCode === 429)
    return { error: `Notion is rate limiting (${status}): retried later`, permanent: false };
  return { error: `Notion answered ${status}${said}`, permanent: false };
}
