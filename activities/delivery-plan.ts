import type { Orm } from '../src/db/orm';
import { formOfSubmissionNotifies } from '../src/db/sql/forms';
import { enabledPluginsOfSubmission } from '../src/db/sql/plugins';
import type { DeliveryPlan } from '../workflows/submission-contract';

export type DeliveryPlanActivities = {
  planDeliveries(submissionId: string): Promise<DeliveryPlan>;
};

/** The enabled, not deleted plugins of a submission's form, and whether it has e-mail addresses. */
export function createDeliveryPlanActivities(orm: Orm): DeliveryPlanActivities {
  return {
    async planDeliveries(submissionId) {
      const em = orm.em.fork();
      const [plugins, notify] = await Promise.all([
        enabledPluginsOfSubmission(em, submissionId),
        formOfSubmissionNotifies(em, submissionId),
      ]);
      return {
        targets: plugins.map((plugin) => ({ pluginId: plugin.id, pluginType: plugin.pluginType })),
        notify,
      };
    },
  };
}
