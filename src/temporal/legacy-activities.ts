import type { DeliveryPlanActivities } from '../../activities/delivery-plan';
import type { LegacyDeliveryTargetActivities } from '../../workflows/submission-contract';

/**
 * Activities that only runs started before a workflow patch still schedule, served from the
 * current ones; kept while such runs may be open (test/fixtures/workflow-histories/README.md).
 */
export function legacyActivities(current: DeliveryPlanActivities): LegacyDeliveryTargetActivities {
  return {
    async listDeliveryTargets(submissionId) {
      return (await current.planDeliveries(submissionId)).targets;
    },
  };
}
