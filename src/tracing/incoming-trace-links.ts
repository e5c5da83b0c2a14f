import { IncomingMessage, type ClientRequest } from 'node:http';
import {
  defaultTextMapGetter,
  ROOT_CONTEXT,
  trace,
  type Span,
  type TextMapPropagator,
} from '@opentelemetry/api';

/*
 * A request to our listener starts a trace of its own (docs/tracing.md, "Incoming trace
 * context"): a submitter's `traceparent` would otherwise make its trace the parent of the
 * ingest span, be stored with the workflow start and be forwarded to every receiver. The
 * context it names is kept as a link of the server span instead, and its baggage is dropped.
 */

/** Header objects of incoming requests: never extracted as a parent. */
const incomingHeaders = new WeakSet<object>();

/** Marks an incoming request before the http instrumentation extracts its context. */
export function markIncomingRequest(request: IncomingMessage): void {
  incomingHeaders.add(request.headers);
}

/**
 * `propagator` for everything but incoming requests (Temporal headers, our stored
 * traceparent); for those, the context is left as it was: the server span is a new root.
 */
export function withoutIncomingParents(propagator: TextMapPropagator): TextMapPropagator {
  return {
    inject: (context, carrier, setter) => propagator.inject(context, carrier, setter),
    extract: (context, carrier, getter) =>
      typeof carrier === 'object' && carrier !== null && incomingHeaders.has(carrier)
        ? context
        : propagator.extract(context, carrier, getter),
    fields: () => propagator.fields(),
  };
}

/**
 * Links the server span of an incoming request to the trace its valid `traceparent` names
 * (read by `traceContext`, the W3C propagator); outgoing requests are left alone.
 */
export function linkIncomingTraceparent(traceContext: TextMapPropagator) {
  return (span: Span, request: ClientRequest | IncomingMessage): void => {
    if (!(request instanceof IncomingMessage) || request.headers.traceparent === undefined) return;
    const sent = trace.getSpanContext(
      traceContext.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter),
    );
    if (sent && trace.isSpanContextValid(sent)) span.addLink({ context: sent });
  };
}
