import { ApplicationFailure } from '@temporalio/activity';
import { signatureHeaders } from './signatures';
import { webhookBody } from './webhook-body';
import type { WebhookHeader } from './webhook-headers';
import { PLUGIN_UNAVAILABLE } from '../../../workflows/failure-types';
import type { DeliverAttempt, PluginDeliveryDeps } from '../delivery/attempt';
import { sendWithHeartbeat } from '../delivery/heartbeat-send';
import { attemptNumberOf } from '../delivery/attempt-number';

/** What an attempt reads of the stored config (declaration.ts), header values opened. */
type WebhookTarget = { url: string; headers?: WebhookHeader[] };

/**
 * One attempt of a webhook delivery (docs/webhook-delivery.md), run by Temporal with the
 * retry policy of the workflow. The plugin's URL and secret are read now, so a rotation
 * applies to the very next attempt and a deleted or disabled plugin stops its retries.
 */
export const webhookDelivery =
  (deps: PluginDeliveryDeps): DeliverAttempt<WebhookTarget> =>
  async ({ input, plugin, config, source }) => {
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
    const own = Object.fromEntries(
      (config.headers ?? []).map((h) => [h.name.toLowerCase(), h.value]),
    );
    const result = await sendWithHeartbeat(deps.sender, {
      url: config.url,
      body,
      headers: {
        ...own,
        'content-type': 'application/json',
        'user-agent': 'Formward-Webhooks/1',
        'x-formward-delivery': input.deliveryId,
        'x-formward-attempt': String(attemptNumberOf(input.attemptOffset)),
        ...signatureHeaders(secret, input.deliveryId, timestamp, body),
      },
    });
    // A receiver may echo a header's value (an API key): the shared steps scrub every one.
    return { result, permanent: result.failure === 'blocked_address', delivered: 'delivered' };
  };
