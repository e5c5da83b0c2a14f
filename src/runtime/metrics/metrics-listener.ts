import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Orm } from '../../db/orm';
import type { LazyTemporalClient } from '../../temporal/client';
import { startDependencyChecks } from './dependency-checks';
import { labelProcess, metricsRegistry } from '../../domain/metrics/registry';
import { trackPool, type PoolCounts } from './pool-gauge';
import { temporalSdkMetrics } from './temporal-sdk-metrics';
import { trackWaitingStarts } from './waiting-starts';
import { answerTlsAsk, TLS_ASK_PATH } from '../tls-ask';

export type RunningMetricsListener = {
  /** `http://host:port/metrics`. */
  url: string;
  port: number;
  close(): Promise<void>;
};

/**
 * The metrics listener (docs/metrics.md): its own node:http server on METRICS_HOST:METRICS_PORT,
 * never the public app. `GET /metrics` answers the Prometheus text of this process (ours, then
 * the Temporal SDK's); `GET /tls/ask?domain=` answers Caddy's on-demand TLS question
 * (tls-ask.ts, docs/custom-domains.md); everything else is 404.
 */
export async function startMetricsListener(deps: {
  host: string;
  port: number;
  process: 'serve' | 'worker';
  orm: Orm;
  temporal: LazyTemporalClient;
  logger: Logger;
}): Promise<RunningMetricsListener> {
  labelProcess(deps.process);
  trackWaitingStarts(deps.orm);
  trackPool(() => poolOf(deps.orm));
  const stopChecks = startDependencyChecks(deps);

  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === TLS_ASK_PATH && req.method === 'GET') return answerTlsAsk(req, res, deps);
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    Promise.all([metricsRegistry.metrics(), temporalSdkMetrics()]).then(
      ([ours, sdk]) => {
        res.writeHead(200, { 'content-type': metricsRegistry.contentType });
        res.end(req.method === 'HEAD' ? undefined : joinExpositions(ours, sdk));
      },
      (error: unknown) => {
        deps.logger.warn({ err: error }, 'metrics could not be collected');
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('error\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(deps.port, deps.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = deps.host.includes(':') ? `[${deps.host}]` : deps.host;
  deps.logger.info({ port, host: deps.host }, 'metrics listener running');
  return {
    url: `http://${host}:${port}/metrics`,
    port,
    async close() {
      stopChecks();
      trackWaitingStarts(null);
      trackPool(null);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** The knex (tarn) pool behind MikroORM's connection, if it has one. */
function poolOf(orm: Orm): PoolCounts | null {
  const knex = orm.em.getConnection().getKnex() as unknown as {
    client?: { pool?: PoolCounts };
  };
  return knex.client?.pool ?? null;
}

/** Two texts in the Prometheus format as one: each ends its last line. */
function joinExpositions(ours: string, sdk: string): string {
  if (!sdk) return ours;
  return `${ours.endsWith('\n') ? ours : `${ours}\n`}${sdk}`;
}
