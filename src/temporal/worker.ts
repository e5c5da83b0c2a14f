import fs from 'node:fs';
import path from 'node:path';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import type { Orm } from '../db/orm';

/** The workflow bundle entry, as TypeScript under vitest or as compiled JavaScript in dist/. */
function workflowsPath(): string {
  const base = path.resolve(__dirname, '../../workflows/index');
  return fs.existsSync(`${base}.ts`) ? `${base}.ts` : `${base}.js`;
}

export async function createWorker(options: {
  address: string;
  namespace: string;
  taskQueue: string;
  orm: Orm;
}): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: options.address });
  const worker = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    workflowsPath: workflowsPath(),
    activities: createActivities({ orm: options.orm }),
    shutdownGraceTime: '30s',
  });
  return { worker, connection };
}
