import type { WorkflowClientInterceptor } from '@temporalio/client';
import type { WorkerOptions } from '@temporalio/worker';

/**
 * What the rest of the code asks of tracing (docs/tracing.md). Empty until startTracing
 * installs the real hooks, so with OTEL_EXPORTER_OTLP_ENDPOINT unset every call below is a
 * no-op and no OpenTelemetry module is ever loaded.
 */
export type TraceHooks = {
  /** The active span's W3C `traceparent`, to carry a trace across a stored workflow start. */
  currentTraceparent(): string | null;
  /** Runs `fn` inside the trace context that `traceparent` names. */
  withTraceparent<T>(traceparent: string, fn: () => T): T;
  /** Sets attributes on the active span (the ingest request's server span). */
  setSpanAttributes(attributes: Record<string, string>): void;
  clientInterceptors(): WorkflowClientInterceptor[];
  workerOptions(): Pick<WorkerOptions, 'interceptors' | 'sinks'>;
  /** Exports what is buffered and stops (on shutdown). */
  shutdown(): Promise<void>;
};

let hooks: TraceHooks | null = null;

export function installTraceHooks(installed: TraceHooks | null): void {
  hooks = installed;
}

export const tracingEnabled = (): boolean => hooks !== null;

export const currentTraceparent = (): string | null => hooks?.currentTraceparent() ?? null;

export function withTraceparent<T>(traceparent: string | null | undefined, fn: () => T): T {
  return hooks && traceparent ? hooks.withTraceparent(traceparent, fn) : fn();
}

export const setSpanAttributes = (attributes: Record<string, string>): void =>
  hooks?.setSpanAttributes(attributes);

export const tracingClientInterceptors = (): WorkflowClientInterceptor[] =>
  hooks?.clientInterceptors() ?? [];

export const tracingWorkerOptions = (): Pick<WorkerOptions, 'interceptors' | 'sinks'> =>
  hooks?.workerOptions() ?? {};

export const shutdownTracing = async (): Promise<void> => {
  const current = hooks;
  hooks = null;
  await current?.shutdown();
};
