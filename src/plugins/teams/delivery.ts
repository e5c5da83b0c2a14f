import { teamsMessage } from './teams-card';
import type { SendResult } from '../../outbound/sender';
import type { DeliverAttempt, PluginDeliveryDeps } from '../delivery/attempt';
import { sendWithHeartbeat } from '../delivery/heartbeat-send';
import { withoutSecrets } from '../delivery/secret-free-result';

/** Answers a Teams workflow gives that no retry changes: a bad card, a bad `sig`, no such flow. */
const PERMANENT_STATUS: Record<number, string> = {
  400: 'the workflow refused the card (400)',
  401: 'the workflow refused its signature (401): copy its URL again and add a new plugin',
  403: 'the workflow refused the request (403): copy its URL again and add a new plugin',
  404: 'no such workflow (404): it was deleted or turned off',
};

/** The secrets of a workflow URL: the URL itself and its `sig`. */
function secretsOf(url: string): string[] {
  try {
    return [url, new URL(url).searchParams.get('sig') ?? ''];
  } catch {
    return [url];
  }
}

/** The sender's result with a readable error for the answers that end the delivery. */
function explained(result: SendResult): { result: SendResult; permanent: boolean } {
  const reason = result.statusCode === null ? undefined : PERMANENT_STATUS[result.statusCode];
  if (result.failure === 'blocked_address') return { result, permanent: true };
  if (!reason) return { result, permanent: false };
  return { result: { ...result, error: `Teams: ${reason}` }, permanent: true };
}

/**
 * One attempt of a Microsoft Teams plugin (docs/plugins.md): the submission as an Adaptive
 * Card, POSTed through the guarded sender to the workflow URL (opened from its seal for this
 * attempt only), with the policy of workflows/delivery-kinds.ts. A workflow answers 202; a
 * 429's `Retry-After` sets the next retry's delay; 400, 401, 403 and 404 end the delivery.
 */
export const teamsDelivery =
  (deps: PluginDeliveryDeps): DeliverAttempt<{ url: string }> =>
  async ({ config, source }) => {
    const sent = await sendWithHeartbeat(deps.sender, {
      url: config.url,
      body: JSON.stringify(teamsMessage(source)),
      headers: { 'content-type': 'application/json', 'user-agent': 'Formward-Webhooks/1' },
    });
    return {
      ...explained(withoutSecrets(sent, secretsOf(config.url))),
      delivered: 'message delivered',
    };
  };
