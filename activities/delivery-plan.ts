import { Context } from '@temporalio/activity';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../src/db/orm';
import { CONDITIONS_SKIP_PREFIX, insertSkippedAttempt } from '../src/db/sql/delivery-attempts';
import {
  selectDeletionTargets,
  selectDeliveryPlanRow,
  type DeliveryPlanRow,
  type PluginTargetRow,
} from '../src/db/sql/workflow-step-reads';
import { conditionsMatch, type Conditions } from '../src/plugins/manage/conditions';
import { deliveryIdOf } from '../workflows/delivery-ids';
import type { DeliveryPlanActivities } from '../workflows/activity-contracts';
import { REDELIVERY, type DeliveryMode } from '../workflows/submission-contract';

/** The plugin types a submitter's delete (`submission.deleted`) is delivered to. */
const DELETION_PLUGIN_TYPES = ['webhook'];

/** Why a plugin gets no delivery of this submission; null when it gets one. */
function skipReason(plugin: PluginTargetRow, payload: Record<string, unknown>): string | null {
  if (!plugin.enabled) return `plugin disabled: ${plugin.disabledReason ?? 'by the account'}`;
  if (!conditionsMatch(plugin.conditions as Conditions | null, payload))
    return `${CONDITIONS_SKIP_PREFIX} the submission does not match the plugin's conditions`;
  return null;
}

/**
 * Records a `skipped` delivery for each plugin of the form that gets none (disabled,
 * docs/endpoint-health.md; or its conditions not met, docs/plugins.md), under the delivery id
 * this run would have used. `?test=true` runs (marked on their submission before they start)
 * record no disabled plugin, and their conditions skips as test records: their answer lists
 * the plugins sent. Idempotent: a retried local activity finds its records written.
 */
async function recordSkipped(
  em: EntityManager,
  submissionId: string,
  plan: DeliveryPlanRow,
  mode: DeliveryMode,
): Promise<void> {
  const run = Context.current().info.workflowExecution;
  if (!run) return;
  for (const plugin of plan.plugins) {
    const reason = skipReason(plugin, plan.payload ?? {});
    if (reason === null || (plan.isTest && !plugin.enabled)) continue;
    await insertSkippedAttempt(em, {
      deliveryId: deliveryIdOf(run.runId, plugin.id),
      submissionId,
      pluginId: plugin.id,
      error: reason,
      isReplay: mode === REDELIVERY,
      isTest: plan.isTest,
      workflowId: run.workflowId,
      workflowRunId: run.runId,
    });
  }
}

/**
 * The enabled, not deleted plugins of a submission's form whose conditions it meets, whether
 * it has e-mail addresses, whether it autoresponds to this submission's `email` and whether it
 * deletes delivered submissions; the others get their `skipped` record here.
 */
export function createDeliveryPlanActivities(orm: Orm): DeliveryPlanActivities {
  return {
    async planDeliveries(submissionId, mode = 'live') {
      const em = orm.em.fork();
      // One statement: the form's plugins, its notification addresses, the test mark.
      const plan = await selectDeliveryPlanRow(em, submissionId);
      if (!plan) return { targets: [], notify: false, autorespond: false }; // the submission is gone
      await recordSkipped(em, submissionId, plan, mode);
      return {
        targets: plan.plugins
          .filter((plugin) => skipReason(plugin, plan.payload ?? {}) === null)
          .map((plugin) => ({ pluginId: plugin.id, pluginType: plugin.pluginType })),
        notify: plan.notify,
        autorespond: plan.autorespond,
        // Only when set, so plans of other forms stay as they were recorded.
        ...(plan.deleteAfterDelivery && { deleteAfterDelivery: true }),
      };
    },
    async planDeletionDeliveries(formId) {
      // Only webhooks: the other types deliver rows and messages of a submission's values,
      // and a deleted one has none (docs/manage-links.md).
      const plugins = await selectDeletionTargets(orm.em.fork(), formId, DELETION_PLUGIN_TYPES);
      return plugins.map((plugin) => ({ pluginId: plugin.id, pluginType: plugin.pluginType }));
    },
  };
}
