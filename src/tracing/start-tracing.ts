import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { installTraceHooks, shutdownTracing, tracingEnabled } from './trace-hooks';

/** Requests that are not worth a trace: probes, metrics scrapes and static assets. */
const UNTRACED_PATHS =
  /^\/(healthz|readyz|metrics)(\/|$)|^\/(static|assets)\/|\.(css|js|map|png|svg|ico|woff2?)$/;

export const isUntracedRequest = (request: Pick<IncomingMessage, 'url'>): boolean =>
  UNTRACED_PATHS.test((request.url ?? '/').split('?')[0]!);

/** True when OpenTelemetry is configured: OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT is set. */
export const tracingConfigured = (env: NodeJS.ProcessEnv = process.env): boolean =>
  Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);

/**
 * Starts the OpenTelemetry Node SDK when configured (docs/tracing.md): the OTLP http/protobuf
 * exporter behind a batch processor and the redaction, server spans for HTTP requests (each a
 * new trace, linked to the one a request names), client spans for undici (webhook
 * deliveries), and the hooks that carry the trace into Temporal. Unconfigured, nothing
 * is imported or registered. Call it before the servers and clients are created.
 */
export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  if (!tracingConfigured(env) || tracingEnabled()) return tracingEnabled();
  const [api, sdkNode, core, resources, exporter, http, undici, temporal] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/exporter-trace-otlp-proto'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-undici'),
    import('@temporalio/interceptors-opentelemetry'),
  ]);
  const { workflowSpanProcessor } = await import('./workflow-spans.js');
  const { redactingSpanProcessor } = await import('./span-redaction.js');
  const { batchSpanProcessor } = await import('./batch-span-processor.js');
  const incoming = await import('./incoming-trace-links.js');

  const resource = resources
    .defaultResource()
    .merge(resources.detectResources({ detectors: [resources.envDetector] }))
    .merge(
      resources.resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || 'formward' }),
    );
  // Every span, workflow spans too, is redacted before the exporter sees it (span-redaction.ts).
  const processor = redactingSpanProcessor(
    batchSpanProcessor(new exporter.OTLPTraceExporter(), env),
  );
  const { W3CTraceContextPropagator, W3CBaggagePropagator, CompositePropagator } = core;
  const sdk = new sdkNode.NodeSDK({
    resource,
    autoDetectResources: false,
    spanProcessors: [processor],
    textMapPropagator: incoming.withoutIncomingParents(
      new CompositePropagator({
        propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
      }),
    ),
    instrumentations: [
      new http.HttpInstrumentation({
        ignoreIncomingRequestHook: isUntracedRequest,
        // Called before the request's context is extracted: a new trace, linked (docs/tracing.md).
        startIncomingSpanHook(request) {
          incoming.markIncomingRequest(request);
          return {};
        },
        requestHook: incoming.linkIncomingTraceparent(new W3CTraceContextPropagator()),
      }),
      new undici.UndiciInstrumentation(),
    ],
  });
  sdk.start();
  // The http instrumentation patches the module when it is next required: require it now, so
  // that servers of modules loaded before this call (express) get server spans too.
  createRequire(__filename)('http');

  const { activityAttributes } = await import('./activity-attributes.js');
  installTraceHooks({
    currentTraceparent() {
      const carrier: Record<string, string> = {};
      api.propagation.inject(api.context.active(), carrier);
      return carrier.traceparent ?? null;
    },
    withTraceparent(traceparent, fn) {
      const parent = api.propagation.extract(api.ROOT_CONTEXT, { traceparent });
      return api.context.with(parent, fn);
    },
    setSpanAttributes: (attributes) => api.trace.getActiveSpan()?.setAttributes(attributes),
    clientInterceptors: () => [new temporal.OpenTelemetryWorkflowClientInterceptor()],
    workerOptions: () => ({
      interceptors: {
        activity: [
          (ctx) => ({
            inbound: new temporal.OpenTelemetryActivityInboundInterceptor(ctx),
            outbound: new temporal.OpenTelemetryActivityOutboundInterceptor(ctx),
          }),
          activityAttributes,
        ],
      },
      // Temporal's sink is typed against OpenTelemetry JS 1.x; workflowSpanProcessor adapts.
      sinks: {
        exporter: temporal.makeWorkflowExporter(
          workflowSpanProcessor(processor) as never,
          resource as never,
        ),
      },
    }),
    shutdown: () => sdk.shutdown(),
  });
  return true;
}

export { shutdownTracing };
