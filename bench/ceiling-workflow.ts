// The Temporal ceiling's workflow, bundled by the bench's own worker only (Formward's worker
// loads workflows/index.ts, which does not export it). Formward's submission workflow with
// the work taken out: two local activities (spam check, delivery plan), then one activity
// (the delivery to the one plugin), so the server does the same work per workflow.
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { CeilingActivities } from './ceiling-activities';

const { probeLocalStep } = proxyLocalActivities<CeilingActivities>({
  startToCloseTimeout: '30s',
});
const { probeDelivery } = proxyActivities<CeilingActivities>({ startToCloseTimeout: '30s' });

export async function ceilingProbe(): Promise<void> {
  await probeLocalStep();
  await probeLocalStep();
  await probeDelivery();
}
