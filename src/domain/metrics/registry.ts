import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { PLUGIN_TYPE_KEYS } from '../../../workflows/delivery-kinds';

/**
 * The process's metrics (docs/metrics.md): one registry per process, whatever it runs. The
 * instruments below are always recorded (a counter step costs next to nothing); they are only
 * served when METRICS_PORT is set (src/runtime/metrics/metrics-listener.ts).
 */
export const metricsRegistry = new Registry();

/** Seconds buckets for HTTP answers: most are a few milliseconds, uploads take seconds. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds buckets for one delivery attempt: a receiver's answer, up to the read timeout. */
const ATTEMPT_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Seconds from stored to delivered: the first attempt, or retries over minutes and hours. */
const DELIVERY_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 14400, 86400];

export const submissionsTotal = new Counter({
  name: 'formward_submissions_total',
  help: 'Submissions by outcome: accepted or rejected (4xx) at ingest, spam when the workflow marks it',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const httpRequestDuration = new Histogram({
  name: 'formward_http_request_duration_seconds',
  help: 'HTTP requests of the public listener by declared route, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: HTTP_BUCKETS,
  registers: [metricsRegistry],
});

export const ingestGroupRows = new Histogram({
  name: 'formward_ingest_group_rows',
  help: 'Submissions stored by each group-commit statement at ingest (1: nothing to group with)',
  buckets: [1, 2, 4, 8, 16, 32, 64, 128, 200],
  registers: [metricsRegistry],
});

export const deliveriesTotal = new Counter({
  name: 'formward_deliveries_total',
  help: 'Deliveries by plugin type and final outcome (failed: retries exhausted or given up)',
  labelNames: ['plugin_type', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const deliveryAttemptDuration = new Histogram({
  name: 'formward_delivery_attempt_duration_seconds',
  help: 'Each delivery attempt by plugin type and outcome',
  labelNames: ['plugin_type', 'outcome'] as const,
  buckets: ATTEMPT_BUCKETS,
  registers: [metricsRegistry],
});

export const submissionDeliverySeconds = new Histogram({
  name: 'formward_submission_delivery_seconds',
  help: "From a submission's storing to the first successful delivery of each plugin",
  labelNames: ['plugin_type'] as const,
  buckets: DELIVERY_BUCKETS,
  registers: [metricsRegistry],
});

export const pluginsDisabledTotal = new Counter({
  name: 'formward_plugins_disabled_total',
  help: 'Plugins disabled by endpoint health (docs/endpoint-health.md)',
  labelNames: ['plugin_type'] as const,
  registers: [metricsRegistry],
});

/**
 * Every outcome and plugin type starts at 0, so the first failure is an increase Prometheus
 * sees (a series born at 1 shows no increase) and the ratio alerts work from the start.
 */
const PLUGIN_TYPES = PLUGIN_TYPE_KEYS;
for (const outcome of ['accepted', 'spam', 'rejected']) submissionsTotal.inc({ outcome }, 0);
for (const plugin_type of PLUGIN_TYPES) {
  for (const outcome of ['delivered', 'failed']) deliveriesTotal.inc({ plugin_type, outcome }, 0);
  pluginsDisabledTotal.inc({ plugin_type }, 0);
}

let labelled: 'serve' | 'worker' | null = null;

/** The `process` label of this process's series (`worker` until a listener names it). */
export const processLabel = (): 'serve' | 'worker' => labelled ?? 'worker';

/**
 * Whether this process's metrics are served: a metrics listener, or the parent `formward
 * start` that reads them over IPC, has named the process (src/runtime/metrics/process-metrics.ts).
 */
export const metricsServed = (): boolean => labelled !== null;

/**
 * Names the process (`serve` or `worker`) on every series and adds prom-client's process
 * and Node.js metrics; the first call of the process decides.
 */
export function labelProcess(name: 'serve' | 'worker'): void {
  if (labelled) return;
  labelled = name;
  metricsRegistry.setDefaultLabels({ process: name });
  collectDefaultMetrics({ register: metricsRegistry });
}
