import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Orm } from '../../db/orm';
import type { LazyTemporalClient } from '../../temporal/client';
import { Gauge } from 'prom-client';
import { metricsRegistry } from '../../domain/metrics/registry';
import {
  collectExposition,
  exposition,
  mergeExpositions,
  type ProcessExposition,
} from './exposition';
import { startProcessMetrics } from './process-metrics';
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
 * the Temporal SDK's) and, with `workerMetrics` (`formward start`), its worker process's too;
 * `GET /tls/ask?domain=` answers Caddy's on-demand TLS question (tls-ask.ts,
 * docs/custom-domains.md); everything else is 404.
 */
export async function startMetricsListener(deps: {
  host: string;
  port: number;
  process: 'serve' | 'worker';
  orm: Orm;
  temporal: LazyTemporalClient;
  logger: Logger;
  /** The worker process's metrics, or null when they could not be read in time. */
  workerMetrics?: () => Promise<ProcessExposition | null>;
}): Promise<RunningMetricsListener> {
  const stopProcessMetrics = startProcessMetrics(deps);
  const { workerMetrics } = deps;
  const collect = workerMetrics ? () => withWorker(workerMetrics) : exposition;

  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === TLS_ASK_PATH && req.method === 'GET') return answerTlsAsk(req, res, deps);
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    collect().then(
      (text) => {
        res.writeHead(200, { 'content-type': metricsRegistry.contentType });
        res.end(req.method === 'HEAD' ? undefined : text);
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
      stopProcessMetrics();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** Worker-metrics readiness: the gauge's name (docs/metrics.md). */
const WORKER_METRICS_UP = 'formward_worker_metrics_up';

/**
 * This process's metrics with the worker process's merged in; when the worker's could not be
 * read, ours alone, and `formward_worker_metrics_up` says so.
 */
async function withWorker(read: () => Promise<ProcessExposition | null>): Promise<string> {
  const worker = await read();
  workerMetricsUp().set(worker ? 1 : 0);
  const ours = await collectExposition();
  return mergeExpositions(worker ? [ours, worker] : [ours]);
}

/** Created by the first listener that reads a worker's metrics: no other process has it. */
function workerMetricsUp(): Gauge {
  const existing = metricsRegistry.getSingleMetric(WORKER_METRICS_UP);
  if (existing) return existing as Gauge;
  return new Gauge({
    name: WORKER_METRICS_UP,
    help: "Whether this scrape includes the worker process's series (0: it did not answer in 2 s)",
    registers: [metricsRegistry],
  });
}
