import type { Orm } from '../src/db/orm';
import type { ProviderUrls } from '../src/config/config';
import { readNotionAnswer } from '../src/domain/notion/notion-answer';
import { readNotionDatabase } from '../src/domain/notion/notion-database';
import { notionPageBody } from '../src/domain/notion/notion-page';
import type { PluginHealthDeps } from '../src/domain/plugins/plugin-health';
import type { SigningSecretCipher } from '../src/domain/plugins/signing-secret';
import type { NotionConfig } from '../src/domain/plugins/types/notion';
import type { SendResult, WebhookSender } from '../src/domain/webhooks/webhook-sender';
import { STORED_RESPONSE_BYTES } from '../src/domain/webhooks/webhook-sender';
import type { NotionActivities } from '../workflows/activity-contracts';
import { NotionDatabaseCache } from './notion-database-cache';
import {
  loadDeliverable,
  openedConfig,
  recordAndSettle,
  sendWithHeartbeat,
} from './plugin-attempt';
import { recordedAnswer } from './provider-answer';

/** The API version every request names: the one whose databases hold their properties. */
export const NOTION_VERSION = '2022-06-28';
/** A database's description, select options included, can pass the stored 4 KB by far. */
const DATABASE_READ_BYTES = 1024 * 1024;

type NotionDeps = PluginHealthDeps & {
  orm: Orm;
  sender: WebhookSender;
  pluginSecrets: SigningSecretCipher;
  providerUrls: ProviderUrls;
};

/**
 * One attempt of a Notion plugin (docs/plugins.md, "notion"): the database's properties
 * (read at most once a minute per plugin), then the submission as one page,
 * `POST {NOTION_API_URL}/v1/pages`, through the guarded sender. A 401, 403, 404 or 400 fails
 * at once; a 429 waits its `Retry-After`.
 */
export function createNotionActivities(deps: NotionDeps): NotionActivities {
  const databases = new NotionDatabaseCache();
  return {
    async deliverNotion(input) {
      const em = deps.orm.em.fork();
      const { plugin, source } = await loadDeliverable(em, input, 'notion');
      const config = openedConfig(plugin, deps.pluginSecrets) as NotionConfig;
      const headers = {
        authorization: `Bearer ${config.token}`,
        'notion-version': NOTION_VERSION,
        'content-type': 'application/json',
        'user-agent': 'Formward-Plugins/1',
      };
      const startedAt = new Date();
      const url = deps.providerUrls.notion;
      let database = databases.get(plugin.id, config.database);
      let sent: SendResult | null = null;
      if (!database) {
        const read = await sendWithHeartbeat(deps.sender, {
          method: 'GET',
          url: `${url}/v1/databases/${encodeURIComponent(config.database)}`,
          body: '',
          headers,
          readLimitBytes: DATABASE_READ_BYTES,
        });
        database = read.ok ? readNotionDatabase(read.responseBody) : null;
        if (database) databases.set(plugin.id, database);
        else
          sent = {
            ...read,
            responseBody: read.responseBody?.slice(0, STORED_RESPONSE_BYTES) ?? null,
          };
      }
      if (database) {
        sent = await sendWithHeartbeat(deps.sender, {
          url: `${url}/v1/pages`,
          body: JSON.stringify(notionPageBody(database, source)),
          headers,
        });
        // A refused page may mean the database changed: read it again next time.
        if (!sent.ok) databases.forget(plugin.id);
      }
      const { result, permanent } =
        sent!.ok && !database
          ? {
              // A 200 that is no database with a title property (a proxy's page): tried again.
              result: {
                ...sent!,
                ok: false,
                error: 'Notion answered the database read with no database',
              },
              permanent: false,
            }
          : recordedAnswer(sent!, config.token, (status, body) =>
              readNotionAnswer(status, body, config.database),
            );
      deps.logger[result.ok ? 'info' : 'warn'](
        {
          pluginType: 'notion',
          submissionId: input.submissionId,
          pluginId: input.pluginId,
          deliveryId: input.deliveryId,
          statusCode: result.statusCode,
          error: result.error,
        },
        result.ok ? 'notion page created' : 'notion attempt failed',
      );
      return recordAndSettle(em, input, result, {
        health: deps,
        startedAt,
        permanent,
        recentlyHealthy: plugin.recentlyHealthy,
        pluginType: plugin.pluginType,
        storedAt: source.createdAt,
      });
    },
  };
}
