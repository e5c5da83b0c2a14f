import { readNotionAnswer } from './notion-answer';
import { readNotionDatabase, type NotionDatabase } from './notion-database';
import { notionPageBody } from './notion-page';
import type { SendResult } from '../../outbound/sender';
import { STORED_RESPONSE_BYTES } from '../../outbound/sender';
import { NotionDatabaseCache } from './notion-database-cache';
import type { DeliverAttempt, PluginDeliveryDeps } from '../delivery/attempt';
import { sendWithHeartbeat } from '../delivery/heartbeat-send';
import { recordedAnswer } from '../delivery/provider-answer';

/** What an attempt reads of the stored config (declaration.ts). */
type NotionConfig = { token: string; database: string };

/** The API version every request names: the one whose databases hold their properties. */
export const NOTION_VERSION = '2022-06-28';
/** A database's description, select options included, can pass the stored 4 KB by far. */
const DATABASE_READ_BYTES = 1024 * 1024;

/**
 * The database's properties: this worker's copy, else read now (and kept); or the read's
 * answer when it failed. A 200 that is no database with a title property (a proxy's page)
 * is recorded as a failure to try again.
 */
async function databaseOf(
  deps: PluginDeliveryDeps,
  databases: NotionDatabaseCache,
  plugin: { pluginId: string; config: NotionConfig; headers: Record<string, string> },
): Promise<{ database: NotionDatabase } | { failed: SendResult }> {
  const known = databases.get(plugin.pluginId, plugin.config.database);
  if (known) return { database: known };
  const read = await sendWithHeartbeat(deps.sender, {
    method: 'GET',
    url: `${deps.providerUrls.notion}/v1/databases/${encodeURIComponent(plugin.config.database)}`,
    body: '',
    headers: plugin.headers,
    maxResponseBytes: DATABASE_READ_BYTES,
  });
  const database = read.ok ? readNotionDatabase(read.responseBody) : null;
  if (database) {
    databases.set(plugin.pluginId, database);
    return { database };
  }
  const stored = {
    ...read,
    responseBody: read.responseBody?.slice(0, STORED_RESPONSE_BYTES) ?? null,
  };
  if (!read.ok) return { failed: stored };
  return {
    failed: {
      ...stored,
      ok: false,
      failure: 'network',
      error: 'Notion answered the database read with no database',
    },
  };
}

/**
 * One attempt of a Notion plugin (docs/plugins.md, "notion"): the database's properties
 * (read at most once a minute per plugin), then the submission as one page,
 * `POST {NOTION_API_URL}/v1/pages`, through the guarded sender. A 401, 403, 404 or 400 fails
 * at once; a 429 waits its `Retry-After`.
 */
export function notionDelivery(deps: PluginDeliveryDeps): DeliverAttempt<NotionConfig> {
  const databases = new NotionDatabaseCache();
  return async ({ plugin, config, source }) => {
    const headers = {
      authorization: `Bearer ${config.token}`,
      'notion-version': NOTION_VERSION,
      'content-type': 'application/json',
      'user-agent': 'Formward-Plugins/1',
    };
    const read = (status: number, body: string | null) =>
      readNotionAnswer(status, body, config.database);
    const found = await databaseOf(deps, databases, { pluginId: plugin.id, config, headers });
    if ('failed' in found)
      return { ...recordedAnswer(found.failed, config.token, read), delivered: 'page created' };
    const sent = await sendWithHeartbeat(deps.sender, {
      url: `${deps.providerUrls.notion}/v1/pages`,
      body: JSON.stringify(notionPageBody(found.database, source)),
      headers,
    });
    // A refused page may mean the database changed: read it again next time.
    if (!sent.ok) databases.forget(plugin.id);
    return { ...recordedAnswer(sent, config.token, read), delivered: 'page created' };
  };
}
