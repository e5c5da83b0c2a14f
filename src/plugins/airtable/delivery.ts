import { AIRTABLE_RATE_LIMIT_WAIT_MS, readAirtableAnswer } from './airtable-answer';
import { airtableRecordBody, airtableRecordsUrl } from './airtable-record';
import type { AirtableConfig } from './declaration';
import type { DeliveryActivityOf } from '../../../workflows/activity-contracts';
import {
  loadDeliverable,
  openedConfig,
  logAndSettle,
  type ProviderActivityDeps,
  sendWithHeartbeat,
} from '../delivery/plugin-attempt';
import { recordedAnswer } from '../delivery/provider-answer';

/**
 * One attempt of an Airtable plugin (docs/plugins.md, "airtable"): the submission as one
 * record, `POST {AIRTABLE_API_URL}/v0/{base}/{table}` with the plugin's token, through the
 * guarded sender. A 401, 403, 404 or 422 (a missing column) fails at once; a 429 waits its
 * `Retry-After`, or Airtable's 30 seconds.
 */
export function createAirtableActivities(
  deps: ProviderActivityDeps,
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
      return logAndSettle(deps, em, input, {
        plugin,
        config,
        source,
        startedAt,
        result,
        permanent,
        delivered: 'record created',
      });
    },
  };
}
