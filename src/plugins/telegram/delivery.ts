import { readTelegramAnswer } from './telegram-answer';
import { telegramMessage } from './telegram-message';
import type { DeliverAttempt, PluginDeliveryDeps } from '../delivery/attempt';
import { sendWithHeartbeat } from '../delivery/heartbeat-send';
import { withoutSecrets } from '../delivery/secret-free-result';

/**
 * One attempt of a Telegram plugin (docs/plugins.md): the submission as one HTML message,
 * `POST {TELEGRAM_API_URL}/bot<token>/sendMessage` through the guarded sender, with the
 * policy of workflows/delivery-kinds.ts. The token is in the URL's path: it is opened for
 * this attempt only, and scrubbed from whatever is recorded, logged or thrown (traces keep
 * only a request's origin, src/tracing/span-redaction.ts).
 */
export const telegramDelivery =
  (deps: PluginDeliveryDeps): DeliverAttempt<{ token: string; chat_id: string }> =>
  async ({ config, source }) => {
    const url = `${deps.providerUrls.telegram}/bot${config.token}/sendMessage`;
    const sent = await sendWithHeartbeat(deps.sender, {
      url,
      body: JSON.stringify(telegramMessage(config.chat_id, source)),
      headers: { 'content-type': 'application/json', 'user-agent': 'Formward-Webhooks/1' },
    });
    const answer = readTelegramAnswer(withoutSecrets(sent, [url, config.token]));
    return { ...answer, delivered: 'message delivered' };
  };
