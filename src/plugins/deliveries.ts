import { ApplicationFailure } from '@temporalio/activity';
import {
  DELIVERY_ACTIVITY,
  PLUGIN_TYPE_KEYS,
  type DeliveryActivityName,
} from '../../workflows/delivery-kinds';
import type { PluginDeliveryActivities } from '../../workflows/activity-contracts';
import type { DeliveryInput, DeliveryOutcome } from '../../workflows/submission-contract';
import { PLUGIN_UNAVAILABLE } from '../../workflows/failure-types';
import { PLUGIN_TYPES } from './registry';
import { UnreadableConfigError, type PluginTypeDeclaration } from './plugin-type';
import type { PluginDeliveryDeps } from './delivery/attempt';
import { openConfig } from './manage/plugin-secrets';
import { loadDeliverable } from './delivery/load-deliverable';
import { attemptSecrets, recordAndSettle, scrubbedResult } from './delivery/record-attempt';
import { attemptNumberOf } from './delivery/attempt-number';

/**
 * One delivery attempt of a plugin of `type`, the same steps for every type: the plugin and
 * the submission read now (a deleted or disabled plugin stops its retries), the config opened
 * for this attempt only, the type's own send, then one log line and the attempt recorded and
 * settled without any secret value (recordAndSettle).
 */
export function deliverWith(
  type: PluginTypeDeclaration,
  deps: PluginDeliveryDeps,
): (input: DeliveryInput) => Promise<DeliveryOutcome> {
  const send = type.delivery(deps);
  return async (input) => {
    const log = deps.logger.child({
      pluginType: type.key,
      submissionId: input.submissionId,
      pluginId: input.pluginId,
      deliveryId: input.deliveryId,
      attempt: attemptNumberOf(input.attemptOffset),
    });
    const em = deps.orm.em.fork();
    const loaded = await loadDeliverable(em, input, type.key, type.reads).catch(
      (error: unknown) => {
        log.info('plugin deleted or disabled: delivery stopped');
        throw error;
      },
    );
    const { plugin, source, submission, files } = loaded;
    const formFieldNames = loaded.formFieldNames ?? null;
    const config = openConfig(type, plugin.config, deps.pluginSecrets);
    const startedAt = new Date();
    const attempt = { input, em, plugin, config, source, submission, files, formFieldNames };
    const done = await send(attempt).catch((error: unknown) => {
      if (!(error instanceof UnreadableConfigError)) throw error;
      log.warn({ error: error.message }, 'plugin settings unreadable: delivery stopped');
      throw ApplicationFailure.nonRetryable(error.message, PLUGIN_UNAVAILABLE);
    });
    const secrets = attemptSecrets(type, config, done.secrets);
    const result = scrubbedResult(done.result, secrets);
    log[result.ok ? 'info' : 'warn'](
      { statusCode: result.statusCode, error: result.error, durationMs: result.durationMs },
      `${type.key} ${result.ok ? done.delivered : 'attempt failed'}`,
    );
    return recordAndSettle(em, input, result, {
      secrets,
      health: deps,
      startedAt,
      permanent: done.permanent,
      recentlyHealthy: plugin.recentlyHealthy,
      pluginType: plugin.pluginType,
      storedAt: source.createdAt,
      ...(done.failureType ? { failureType: done.failureType } : {}),
    });
  };
}

/** Every type's delivery activity, under the name workflows/delivery-kinds.ts gives it. */
export function pluginDeliveryActivities(deps: PluginDeliveryDeps): PluginDeliveryActivities {
  const entries = PLUGIN_TYPE_KEYS.map(
    (key) => [DELIVERY_ACTIVITY[key], deliverWith(PLUGIN_TYPES[key], deps)] as const,
  );
  // One entry per key of the table, so every name of PluginDeliveryActivities is there.
  return Object.fromEntries(entries) as Record<
    DeliveryActivityName,
    ReturnType<typeof deliverWith>
  >;
}
