// Workflow interceptors of the bundle (docs/tracing.md). A workflow whose start carried a trace
// context (the client interceptor's header, written only where tracing is on) gets Temporal's
// OpenTelemetry interceptors: a RunWorkflow span and a StartActivity span for each activity,
// exported through the worker's sink. Any other workflow, every recorded history among them,
// runs exactly as without this module: no span, no extra header, nothing to replay differently.
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow';
import type { WorkflowInterceptors } from '@temporalio/workflow';

/** The header Temporal's client interceptor carries the trace context in. */
const TRACE_HEADER = '_tracer-data';

type Traced = { outbound: OpenTelemetryOutboundInterceptor };

export const interceptors = (): WorkflowInterceptors => {
  let traced: Traced | null = null;
  return {
    inbound: [
      {
        execute(input, next) {
          if (!(TRACE_HEADER in input.headers)) return next(input);
          traced = { outbound: new OpenTelemetryOutboundInterceptor() };
          return new OpenTelemetryInboundInterceptor().execute(input, next);
        },
      },
    ],
    outbound: [
      {
        scheduleActivity: (input, next) =>
          traced ? traced.outbound.scheduleActivity(input, next) : next(input),
        scheduleLocalActivity: (input, next) =>
          traced ? traced.outbound.scheduleLocalActivity(input, next) : next(input),
      },
    ],
    internals: [
      {
        dispose: (input, next) =>
          traced ? new OpenTelemetryInternalsInterceptor().dispose(input, next) : next(input),
      },
    ],
  };
};
