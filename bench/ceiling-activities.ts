import { Context } from '@temporalio/activity';
import { performance } from 'node:perf_hooks';

/** When each probe workflow's delivery activity ran (performance.now()), by workflow id. */
export type DeliveryClock = Map<string, number>;

/** No-op activities; the delivery notes when it ran, as the webhook receiver does. */
export const ceilingActivities = (delivered: DeliveryClock) => ({
  async probeLocalStep(): Promise<void> {},
  async probeDelivery(): Promise<void> {
    const workflowId = Context.current().info.workflowExecution?.workflowId;
    if (workflowId && !delivered.has(workflowId)) delivered.set(workflowId, performance.now());
  },
});

export type CeilingActivities = ReturnType<typeof ceilingActivities>;
