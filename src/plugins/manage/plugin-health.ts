import type { EntityManager } from '@mikro-orm/postgresql';
import escapeHtml from 'escape-html';
import type { Logger } from 'pino';
import {
  findPluginOwner,
  recordPluginFailure,
  recordPluginSuccess,
  type PluginOwnerRow,
} from '../../db/sql/plugins';
import type { DeliveryMode } from '../../../workflows/submission-contract';
import type { Mailer } from '../../domain/mail/mailer';
import { randomToken } from '../../domain/accounts/secrets';
import { pluginsDisabledTotal } from '../../domain/metrics/registry';

/** PLUGIN_DISABLE_AFTER_FAILURES and PLUGIN_DISABLE_AFTER (docs/configuration.md). */
export type PluginHealthPolicy = { disableAfterFailures: number; disableAfterMs: number };

export type PluginHealthDeps = {
  mailer: Mailer;
  logger: Logger;
  /** Public URL, for the dashboard link in the e-mail. */
  baseUrl: string;
  pluginHealth: PluginHealthPolicy;
};

/** One settled delivery: succeeded (`ok`), or failed on its last attempt (`final`). */
export type DeliveryHealthEvent = {
  pluginId: string;
  /** For the metric of disabled plugins. */
  pluginType: string;
  ok: boolean;
  final: boolean;
  mode: DeliveryMode;
  /**
   * The attempt read the plugin with no failures counted and a success stamped within the
   * last second: a success then writes nothing (see below).
   */
  recentlyHealthy?: boolean;
};

/**
 * Endpoint health (docs/endpoint-health.md), called by a delivery activity after it recorded
 * a succeeded or a final failed attempt. A success ends the plugin's run of failures; an
 * exhausted delivery (live or replay; `?test=true` runs never count) extends it and may
 * disable the plugin, and the one call that disables it e-mails the account.
 *
 * Health is bookkeeping beside the delivery: an error here is logged and never fails the
 * delivery (a succeeded webhook must not be sent again because a counter could not be written).
 */
export async function recordDeliveryHealth(
  em: EntityManager,
  deps: PluginHealthDeps,
  event: DeliveryHealthEvent,
): Promise<void> {
  if (event.mode === 'test' || (!event.ok && !event.final)) return;
  // The statement would find nothing to change (recordPluginSuccess stamps once a second), yet
  // it is a round trip and, at the second's turn, a wait on the row lock for every concurrent
  // success. A failure counted between that read and now stays counted until the next
  // success resets it, as if this success had come first.
  if (event.ok && event.recentlyHealthy) return;
  const log = deps.logger.child({ pluginId: event.pluginId });
  try {
    if (event.ok) return await recordPluginSuccess(em, event.pluginId);
    const change = await recordPluginFailure(em, event.pluginId, {
      threshold: deps.pluginHealth.disableAfterFailures,
      spanMs: deps.pluginHealth.disableAfterMs,
    });
    if (!change?.disabledNow) return;
    pluginsDisabledTotal.inc({ plugin_type: event.pluginType });
    log.warn({ reason: change.disabledReason }, 'plugin disabled after sustained failure');
    const owner = await findPluginOwner(em, event.pluginId);
    if (owner) sendDisabledMail(deps, owner, change.disabledReason ?? 'deliveries kept failing');
  } catch (error) {
    log.error({ err: error }, 'the plugin health could not be recorded');
  }
}

/**
 * Tells the account once, without holding up the delivery. A failure to send is logged and
 * not retried: the plugin stays disabled, and the dashboard and the API show why.
 */
function sendDisabledMail(deps: PluginHealthDeps, owner: PluginOwnerRow, reason: string): void {
  const page = `${deps.baseUrl}/app/forms/${owner.form_id}/plugins`;
  const what = `The ${owner.plugin_type} "${owner.plugin_name}" of your form "${owner.form_name}"`;
  const lines = [
    `${what} was disabled: ${reason}.`,
    'New submissions are not sent to it while it is disabled; each records a skipped delivery.',
    'Once the receiver works again, enable the plugin on its dashboard page (or PATCH it with {"enabled": true}); then recover the failed and skipped submissions with "Recover" there (POST …/recover {"since"}).',
  ];
  deps.mailer
    .send({
      to: [owner.email],
      subject: `Formward: ${owner.plugin_type} "${owner.plugin_name}" was disabled`,
      text: `${lines.join('\n\n')}\n\n${page}\n`,
      html: `${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}<p><a href="${escapeHtml(page)}">${escapeHtml(page)}</a></p>`,
      messageId: `<plugin-disabled-${randomToken(12)}@${deps.mailer.senderDomain}>`,
    })
    .catch((error: unknown) =>
      deps.logger.error(
        { err: error, form: owner.form_id },
        'the plugin-disabled e-mail could not be sent',
      ),
    );
}
