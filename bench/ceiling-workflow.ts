// The Temporal ceiling's workflow, bundled by the bench's own worker only (Formward's worker
// loads workflows/index.ts, which does not export it). Formward's submission workflow with
// the work taken out, in the shape a delivery that succeeds at once has since
// patched('local-first-attempt'): two local activities (spam check, delivery plan), then the
// delivery's first attempt, also a local activity (workflows/first-attempt.ts), so the
// server does the same work per workflow.
import { proxyLocalActivities } from '@temporalio/workflow';
import type { CeilingActivities } from './ceiling-activities';

const { probeLocalStep, probeDelivery } = proxyLocalActivities<CeilingActivities>({
  startToCloseTimeout: '30s',
});

export async function ceilingProbe(): Promise<void> {
  await probeLocalStep();
  await probeLocalStep();
  await probeDelivery();
}
