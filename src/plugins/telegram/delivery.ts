import { readTelegramAnswer } from './telegram-answer';
import { telegramMessage } from './telegram-message';
import type { DeliveryActivityOf } from '../../../workflows/activity-contracts';
import {
  loadDeliverable,
  openedConfig,
  logAndSettle,
  type ProviderActivityDeps,
  sendWithHeartbeat,
} from '../delivery/plugin-attempt';
import { withoutSecrets } from '../delivery/secret-free-result';

/**
 * One attempt of a Telegram plugin (docs/plugins.md): the submission as one HTML message,
 * `POST {TELEGRAM_API_URL}/bot<token>/sendMessage` through the guarded sender, with the
 * policy of workflows/delivery-kinds.ts. The token is in the URL's path: it is opened for
 * this attempt only, and scrubbed from whatever is recorded, logged or thrown (traces keep
 * only a request's origin, src/tracing/span-redaction.ts).
 */
export function createTelegramActivities(
  deps: ProviderActivityDeps,
): DeliveryActivityOf<'deliverTelegram'> {
  return {
    async deliverTelegram(input) {
      const em = deps.orm.em.fork();
      const { plugin, source } = await loadDeliverable(em, input, 'telegram');
      const config = openedConfig(plugin, deps.pluginSecrets);
      const token = String(config.token);
      const url = `${deps.providerUrls.telegram}/bot${token}/sendMessage`;
      const startedAt = new Date();
      const sent = await sendWithHeartbeat(deps.sender, {
        url,
        body: JSON.stringify(telegramMessage(String(config.chat_id), source)),
        headers: { 'content-type': 'application/json', 'user-agent': 'Formward-Webhooks/1' },
      });
      const { result, permanent } = readTelegramAnswer(withoutSecrets(sent, [url, token]));
      return logAndSettle(deps, em, input, {
        plugin,
        config,
        source,
        startedAt,
        result,
        permanent,
        delivered: 'message delivered',
      });
    },
  };
}
