import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace';

/** A span as Temporal's workflow sink hands it over (shaped by OpenTelemetry JS 1.x). */
type WorkflowSpan = ReadableSpan & {
  parentSpanId?: string;
  instrumentationLibrary?: { name: string; version?: string };
};

/**
 * Temporal's interceptors build workflow spans in the 1.x shape (`parentSpanId`,
 * `instrumentationLibrary`); the exporter (2.x and later) reads `parentSpanContext` and
 * `instrumentationScope`. This processor gives them the names the exporter reads, so workflow
 * spans keep their parents and export at all.
 */
export function workflowSpanProcessor(processor: SpanProcessor): SpanProcessor {
  return {
    onStart: (span: Span, context: Context) => processor.onStart(span, context),
    onEnd(span: ReadableSpan) {
      const old = span as WorkflowSpan;
      const own = span.spanContext();
      const parentSpanContext =
        span.parentSpanContext ??
        (old.parentSpanId
          ? {
              traceId: own.traceId,
              spanId: old.parentSpanId,
              traceFlags: own.traceFlags,
              isRemote: false,
            }
          : undefined);
      processor.onEnd({
        ...span,
        spanContext: () => own,
        parentSpanContext,
        instrumentationScope: span.instrumentationScope ??
          old.instrumentationLibrary ?? { name: 'temporal' },
      } as ReadableSpan);
    },
    forceFlush: () => processor.forceFlush(),
    shutdown: () => processor.shutdown(),
  };
}
