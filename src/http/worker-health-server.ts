import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { AppContext } from '../runtime/app-context';
import type { RunningWorker } from '../runtime/worker-runner';
import { entityManagerPerRequest } from './kit/middleware/entity-manager';
import { healthRouter } from './health';

/**
 * `formward worker` has no API; this answers `/healthz` and `/readyz` on PORT so an
 * orchestrator can probe it: ready while PostgreSQL answers and the worker is polling.
 */
export async function startWorkerHealthServer(
  ctx: AppContext,
  worker: RunningWorker,
): Promise<{ close(): Promise<void> }> {
  const app = express();
  app.disable('x-powered-by');
  entityManagerPerRequest(app, ctx.orm);
  app.use(
    healthRouter(ctx, async () => {
      const state = worker.state();
      if (state !== 'RUNNING') throw new Error(`the worker is ${state.toLowerCase()}`);
    }),
  );
  const server = http.createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(ctx.config.port, ctx.config.host, () => resolve());
  });
  const bound = server.address() as AddressInfo;
  ctx.ownListeners.addBound(bound.address, bound.port);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
