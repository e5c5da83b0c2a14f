import { proxyActivities } from '@temporalio/workflow';
// Only types cross into workflow code, plus pure helpers: activities run outside the sandbox.
import type { AutoresponseActivities } from './activity-contracts';
import { deliveryIdOf } from './delivery-ids';
import { failureOf } from './delivery-summary';
import { durableOptions } from './first-attempt';
import { emailPluginActivityPolicy } from './delivery-kinds';
import type { AutoresponseResult, DeliveryMode } from './submission-contract';

/** The autoresponse's place in delivery ids and the delivery log (`plugin_type`). */
export const AUTORESPONSE = 'autoresponse';

/**
 * The autoresponse to the submitter (docs/autoresponse.md): one activity with the e-mail
 * plugin's timeout and retry policy (one attempt under `?test=true`); a failure settles it,
 * it never fails the workflow.
 */
export async function sendAutoresponseStep(
  submissionId: string,
  runId: string,
  mode: DeliveryMode,
): Promise<AutoresponseResult> {
  const policy = emailPluginActivityPolicy(mode === 'test');
  const deliveryId = deliveryIdOf(runId, AUTORESPONSE);
  const { sendAutoresponse } = proxyActivities<AutoresponseActivities>(durableOptions(policy));
  try {
    return await sendAutoresponse({
      submissionId,
      deliveryId,
      mode,
      maxAttempts: policy.maxAttempts,
    });
  } catch (error) {
    return { sent: false, deliveryId, error: failureOf(error).message };
  }
}
