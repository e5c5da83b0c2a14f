import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../../activities';
import { tracingWorkerOptions } from '../tracing/trace-hooks';
import { workflowCode, workflowInterceptorModules } from './workflow-code';

/** Long enough for an in-flight webhook attempt (connect + read timeouts) to finish on shutdown. */
export const WORKER_SHUTDOWN_GRACE_MS = 30_000;

export async function createWorker(
  options: { address: string; namespace: string; taskQueue: string } & ActivityDeps,
): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: options.address });
  const tracing = tracingWorkerOptions();
  const code = workflowCode();
  // The bundle has the workflow interceptors built in; an entry is bundled here with them.
  const workflowModules = 'workflowsPath' in code ? workflowInterceptorModules() : undefined;
  const worker = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    ...code,
    activities: createActivities(options),
    shutdownGraceTime: WORKER_SHUTDOWN_GRACE_MS,
    // Tracing (docs/tracing.md): activity interceptors and the workflow span sink when on.
    interceptors: { ...tracing.interceptors, workflowModules },
    sinks: tracing.sinks,
  });
  return { worker, connection };
}
