import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppContext } from './app-context';
import { createApp } from '../http/app';
import type { LazyTemporalClient } from '../temporal/client';
import { startSweeper } from '../temporal/sweeper';

export type RunningHttpServer = { url: string; port: number; close(): Promise<void> };

/** Starts the HTTP server and the workflow sweeper; links follow the bound port unless BASE_URL is set. */
export async function startHttpServer(
  ctx: AppContext & { temporal: LazyTemporalClient },
): Promise<RunningHttpServer> {
  const app = createApp(ctx, {
    checkTemporal: () =>
      ctx.temporal.call(3000, (client) =>
        client.workflowService.getSystemInfo({}).then(() => undefined),
      ),
    // Under test every error answer is checked against its route's declaration.
    strictAnswers: process.env.NODE_ENV === 'test',
  });
  const server = http.createServer(app);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(ctx.config.port, ctx.config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = ctx.config.host.includes(':') ? `[${ctx.config.host}]` : ctx.config.host;
  const url = `http://${host}:${port}`;
  if (ctx.config.urlsFollowPort) {
    ctx.urls.base = url;
    ctx.urls.ingest = url;
  }
  const sweeper = startSweeper({
    orm: ctx.orm,
    workflows: ctx.workflows,
    logger: ctx.logger,
    intervalMs: ctx.config.sweeperIntervalMs,
  });
  return {
    url,
    port,
    async close() {
      await sweeper.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      // Answered submissions whose start is still queued: start them before we go.
      await ctx.workflows.drain();
    },
  };
}
