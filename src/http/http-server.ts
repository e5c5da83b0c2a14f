import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppContext } from '../runtime/app-context';
import { createApp } from './app';
import type { LazyTemporalClient } from '../temporal/client';
import { startObjectSweep } from '../domain/files/object-sweep';
import { startDomainRechecks } from '../domain/domains/domain-rechecks';

export type RunningHttpServer = {
  url: string;
  /** The address and port bound (the address may be a wildcard such as 0.0.0.0). */
  address: string;
  port: number;
  close(): Promise<void>;
};

/** Starts the HTTP server and its background sweeps; links follow the bound port unless BASE_URL is set. */
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
  const bound = server.address() as AddressInfo;
  const port = bound.port;
  // A worker in this process, or the worker process of `formward start` (told through its
  // environment), refuses to deliver here (docs/webhook-delivery.md, Address guard).
  ctx.ownListeners.addBound(bound.address, port);
  const host = ctx.config.host.includes(':') ? `[${ctx.config.host}]` : ctx.config.host;
  const url = `http://${host}:${port}`;
  if (ctx.config.urlsFollowPort) {
    ctx.urls.base = url;
    ctx.urls.ingest = url;
  }
  // Deleted files' objects: the rows queue them, this deletes them (docs/running.md, File storage).
  const objectSweep =
    ctx.fileStore.kind === 's3'
      ? startObjectSweep({ ...ctx, store: ctx.fileStore, intervalMs: ctx.config.sweeperIntervalMs })
      : null;
  // Verified custom domains are checked again daily (docs/custom-domains.md).
  const domainRechecks = startDomainRechecks({ ...ctx.domainChecks, orm: ctx.orm });
  return {
    url,
    address: bound.address,
    port,
    async close() {
      await domainRechecks.stop();
      await objectSweep?.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
    },
  };
}
