import type { Logger } from 'pino';
import type { Orm } from '../db/orm';
import { installTemporalRuntimeLogger } from '../temporal/runtime-logger';
import { createWorker } from '../temporal/worker';

export type RunningWorker = { stop(): Promise<void>; done: Promise<void> };

/** Runs the Temporal worker until `stop()`: in-flight activities finish within the grace time. */
export async function runWorker(options: {
  address: string;
  namespace: string;
  taskQueue: string;
  orm: Orm;
  logger: Logger;
}): Promise<RunningWorker> {
  installTemporalRuntimeLogger(options.logger);
  const { worker, connection } = await createWorker(options);
  const done = worker
    .run()
    .catch((error: unknown) => {
      options.logger.error({ err: error }, 'temporal worker stopped with an error');
      throw error;
    })
    .finally(() => connection.close());
  options.logger.info({ taskQueue: options.taskQueue }, 'temporal worker running');
  return {
    done,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done.catch(() => undefined);
    },
  };
}
