import { ApplicationFailure } from '@temporalio/activity';
import type { Orm } from '../../db/orm';
import { signatureHeaders } from './signatures';
import { webhookBody } from './webhook-body';
import type { SigningSecretCipher } from '../../domain/secrets/signing-secret';
import type { PluginHealthDeps } from '../manage/plugin-health';
import type { OutboundSender } from '../../outbound/sender';
import { PLUGIN_UNAVAILABLE } from '../../../workflows/failure-types';
import { headersOf } from './webhook-headers';
import {
  attemptSecrets,
  loadDeliverable,
  openedConfig,
  recordAndSettle,
  scrubbedResult,
  sendWithHeartbeat,
} from '../delivery/plugin-attempt';
import type { DeliveryActivityOf } from '../../../workflows/activity-contracts';
import { attemptNumberOf } from '../delivery/attempt-number';

/**
 * One attempt of a webhook delivery (docs/webhook-delivery.md), run by Temporal with the retry policy
 * of the workflow. The plugin's URL and secret are read now, so a rotation applies to the
 * very next attempt and a deleted or disabled plugin stops its retries. The attempt records
 * itself before it reports, whatever happened.
 */
export function createWebhookActivities(
  deps: PluginHealthDeps & {
    orm: Orm;
    sender: OutboundSender;
    signingSecrets: SigningSecretCipher;
    pluginSecrets: SigningSecretCipher;
  },
): DeliveryActivityOf<'deliverWebhook'> {
  return {
    async deliverWebhook(input) {
      const attempt = attemptNumberOf(input.attemptOffset);
      const log = deps.logger.child({
        submissionId: input.submissionId,
        pluginId: input.pluginId,
        deliveryId: input.deliveryId,
        attempt,
      });
      const em = deps.orm.em.fork();
      const { plugin, source } = await loadDeliverable(em, input, 'webhook').catch(
        (error: unknown) => {
          log.info('plugin deleted or disabled: delivery stopped');
          throw error;
        },
      );

      if (!plugin.signingSecret) {
        throw ApplicationFailure.nonRetryable(
          'the webhook has no signing secret',
          PLUGIN_UNAVAILABLE,
        );
      }
      const body = webhookBody(source);
      const timestamp = Math.floor(Date.now() / 1000);
      const secret = deps.signingSecrets.open(plugin.signingSecret);
      // The webhook's own headers (opened for this attempt only) go first: ours replace any
      // of the same name, whatever the check at save time let through.
      const config = openedConfig(plugin, deps.pluginSecrets);
      const secrets = attemptSecrets(plugin, config);
      const own = Object.fromEntries(headersOf(config).map((h) => [h.name.toLowerCase(), h.value]));
      const startedAt = new Date();
      const sent = await sendWithHeartbeat(deps.sender, {
        url: String(plugin.config.url),
        body,
        headers: {
          ...own,
          'content-type': 'application/json',
          'user-agent': 'Formward-Webhooks/1',
          'x-formward-delivery': input.deliveryId,
          'x-formward-attempt': String(attempt),
          ...signatureHeaders(secret, input.deliveryId, timestamp, body),
        },
      });
      // A receiver may echo a header's value (an API key) in its answer or an error.
      const result = scrubbedResult(sent, secrets);
      log[result.ok ? 'info' : 'warn'](
        { statusCode: result.statusCode, error: result.error, durationMs: result.durationMs },
        result.ok ? 'webhook delivered' : 'webhook attempt failed',
      );
      return recordAndSettle(em, input, result, {
        secrets,
        health: deps,
        startedAt,
        permanent: result.failure === 'blocked_address',
        recentlyHealthy: plugin.recentlyHealthy,
        pluginType: plugin.pluginType,
        storedAt: source.createdAt,
      });
    },
  };
}
