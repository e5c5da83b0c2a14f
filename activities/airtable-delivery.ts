import type { Orm } from '../src/db/orm';
import type { ProviderUrls } from '../src/config/config';
import {
  AIRTABLE_RATE_LIMIT_WAIT_MS,
  readAirtableAnswer,
} from '../src/domain/airtable/airtable-answer';
import { airtableRecordBody, airtableRecordsUrl } from '../src/domain/airtable/airtable-record';
import type { PluginHealthDeps } from '../src/domain/plugins/plugin-health';
import type { SigningSecretCipher } from '../src/domain/plugins/signing-secret';
import type { AirtableConfig } from '../src/domain/plugins/types/airtable';
import type { WebhookSender } from '../src/domain/webhooks/webhook-sender';
import type { DeliveryActivityOf } from '../workflows/activity-contracts';
import {
  loadDeliverable,
  openedConfig,
  recordAndSettle,
  sendWithHeartbeat,
} from './plugin-attempt';
import { recordedAnswer } from './provider-answer';

/**
 * One attempt of an Airtable plugin (docs/plugins.md, "airtable"): the submission as one
 * record, `POST {AIRTABLE_API_URL}/v0/{base}/{table}` with the plugin's token, through the
 * guarded sender. A 401, 403, 404 or 422 (a missing column) fails at once; a 429 waits its
 * `Retry-After`, or Airtable's 30 seconds.
 */
export function createAirtableActivities(
  deps: PluginHealthDeps & {
    orm: Orm;
    sender: WebhookSender;
    pluginSecrets: SigningSecretCipher;
    providerUrls: ProviderUrls;
  },
): DeliveryActivityOf<'deliverAirtable'> {
  return {
    async deliverAirtable(input) {
      const em = deps.orm.em.fork();
      const { plugin, source } = await loadDeliverable(em, input, 'airtable');
      const config = openedConfig(plugin, deps.pluginSecrets) as AirtableConfig;
      const startedAt = new Date();
      const sent = await sendWithHeartbeat(deps.sender, {
        url: airtableRecordsUrl(deps.providerUrls.airtable, config.base, config.table),
        body: JSON.stringify(airtableRecordBody(source)),
        headers: {
          authorization: `Bearer ${config.token}`,
          'content-type': 'application/json',
          'user-agent': 'Formward-Plugins/1',
        },
      });
      if (sent.statusCode === 429) sent.retryAfterMs ??= AIRTABLE_RATE_LIMIT_WAIT_MS;
      const { result, permanent } = recordedAnswer(sent, config.token, (status, body) =>
        readAirtableAnswer(status, body, config),
      );
      deps.logger[result.ok ? 'info' : 'warn'](
        {
          pluginType: 'airtable',
          submissionId: input.submissionId,
          pluginId: input.pluginId,
          deliveryId: input.deliveryId,
          statusCode: result.statusCode,
          error: result.error,
        },
        result.ok ? 'airtable record created' : 'airtable attempt failed',
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
