import type { Orm } from '../src/db/orm';
import type { ProviderUrls } from '../src/config/config';
import { readTelegramAnswer } from '../src/domain/chat/telegram-answer';
import { telegramMessage } from '../src/domain/chat/telegram-message';
import type { PluginHealthDeps } from '../src/domain/plugins/plugin-health';
import type { SigningSecretCipher } from '../src/domain/plugins/signing-secret';
import type { WebhookSender } from '../src/domain/webhooks/webhook-sender';
import type { DeliveryActivityOf } from '../workflows/activity-contracts';
import {
  loadDeliverable,
  openedConfig,
  recordAndSettle,
  sendWithHeartbeat,
} from './plugin-attempt';
import { withoutSecrets } from './secret-free-result';

/**
 * One attempt of a Telegram plugin (docs/plugins.md): the submission as one HTML message,
 * `POST {TELEGRAM_API_URL}/bot<token>/sendMessage` through the guarded sender, with the
 * policy of workflows/plugin-policies.ts. The token is in the URL's path: it is opened for
 * this attempt only, and scrubbed from whatever is recorded, logged or thrown (traces keep
 * only a request's origin, src/tracing/span-redaction.ts).
 */
export function createTelegramActivities(
  deps: PluginHealthDeps & {
    orm: Orm;
    sender: WebhookSender;
    pluginSecrets: SigningSecretCipher;
    providerUrls: ProviderUrls;
  },
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
      deps.logger[result.ok ? 'info' : 'warn'](
        {
          pluginType: 'telegram',
          submissionId: input.submissionId,
          pluginId: input.pluginId,
          deliveryId: input.deliveryId,
          statusCode: result.statusCode,
          error: result.error,
        },
        result.ok ? 'telegram message delivered' : 'telegram attempt failed',
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
