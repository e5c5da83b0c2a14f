import { AIRTABLE_RATE_LIMIT_WAIT_MS, readAirtableAnswer } from './airtable-answer';
import { airtableRecordBody, airtableRecordsUrl } from './airtable-record';
import type { DeliverAttempt, PluginDeliveryDeps } from '../delivery/attempt';
import { sendWithHeartbeat } from '../delivery/heartbeat-send';
import { recordedAnswer } from '../delivery/provider-answer';

/** What an attempt reads of the stored config (declaration.ts). */
type AirtableTarget = { token: string; base: string; table: string };

/**
 * One attempt of an Airtable plugin (docs/plugins.md, "airtable"): the submission as one
 * record, `POST {AIRTABLE_API_URL}/v0/{base}/{table}` with the plugin's token, through the
 * guarded sender. A 401, 403, 404 or 422 (a missing column) fails at once; a 429 waits its
 * `Retry-After`, or Airtable's 30 seconds.
 */
export const airtableDelivery =
  (deps: PluginDeliveryDeps): DeliverAttempt<AirtableTarget> =>
  async ({ config, source }) => {
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
    const answer = recordedAnswer(sent, config.token, (status, body) =>
      readAirtableAnswer(status, body, config),
    );
    return { ...answer, delivered: 'record created' };
  };
