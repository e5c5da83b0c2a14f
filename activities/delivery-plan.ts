import { Context } from '@temporalio/activity';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../src/db/orm';
import { insertSkippedAttempt } from '../src/db/sql/delivery-attempts';
import {
  selectDeliveryPlanRow,
  type DeliveryPlanRow,
  type PluginTargetRow,
} from '../src/db/sql/workflow-step-reads';
import { deliveryIdOf } from '../workflows/delivery-ids';
import type { DeliveryPlanActivities } from '../workflows/activity-contracts';
import { REDELIVERY, type DeliveryMode } from '../workflows/submission-contract';

/**
 * Records a `skipped` delivery for each disabled plugin of the form (docs/endpoint-health.md),
 * under the delivery id this run would have used. `?test=true` runs (marked on their
 * submission before they start) record none: their answer lists the enabled plugins only.
 * Idempotent: a retried local activity finds its records written.
 */
async function recordSkipped(
  em: EntityManager,
  submissionId: string,
  plan: DeliveryPlanRow,
  mode: DeliveryMode,
): Promise<void> {
  const run = Context.current().info.workflowExecution;
  const disabled: PluginTargetRow[] = plan.plugins.filter((plugin) => !plugin.enabled);
  if (!run || disabled.length === 0 || plan.isTest) return;
  for (const plugin of disabled) {
    await insertSkippedAttempt(em, {
      deliveryId: deliveryIdOf(run.runId, plugin.id),
      submissionId,
      pluginId: plugin.id,
      error: `plugin disabled: ${plugin.disabledReason ?? 'by the account'}`,
      isReplay: mode === REDELIVERY,
      workflowId: run.workflowId,
      workflowRunId: run.runId,
    });
  }
}

/**
 * The enabled, not deleted plugins of a submission's form, whether it has e-mail addresses,
 * whether it autoresponds to this submission's `email` and whether it deletes delivered
 * submissions; the disabled ones get their `skipped` record here.
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
          .filter((plugin) => plugin.enabled)
          .map((plugin) => ({ pluginId: plugin.id, pluginType: plugin.pluginType })),
        notify: plan.notify,
        autorespond: plan.autorespond,
        // Only when set, so plans of other forms stay as they were recorded.
        ...(plan.deleteAfterDelivery && { deleteAfterDelivery: true }),
      };
    },
  };
}
