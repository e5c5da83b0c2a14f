import http from 'node:http';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';

// The part of the OTLP trace protocol (opentelemetry-proto, trace/v1 and collector/trace/v1)
// that the tests read: field numbers as the specification gives them.
const OTLP_TRACE_PROTO = `
syntax = "proto3";
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message Resource { repeated KeyValue attributes = 1; }
message ScopeSpans { Scope scope = 1; repeated Span spans = 2; }
message Scope { string name = 1; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; bytes parent_span_id = 4; string name = 5;
  int32 kind = 6; repeated KeyValue attributes = 9; repeated Event events = 11;
  repeated Link links = 13; Status status = 15;
}
message Event { string name = 2; repeated KeyValue attributes = 3; }
message Link { bytes trace_id = 1; bytes span_id = 2; repeated KeyValue attributes = 4; }
message Status { string message = 2; int32 code = 3; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue {
  oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; }
}
`;
const ExportRequest = protobuf
  .parse(OTLP_TRACE_PROTO, { keepCase: false })
  .root.lookupType('ExportTraceServiceRequest');

/** One exported span, flattened for assertions (ids as hex, attributes as strings). */
export type ReceivedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  service: string;
  attributes: Record<string, string>;
  /** The spans this one links to (a request's own trace context, docs/tracing.md). */
  links: Array<{ traceId: string; spanId: string }>;
  /** Events and the status message: read by this receiver only. */
  events?: Array<{ name: string; attributes: Record<string, string> }>;
  statusMessage?: string;
};

type KeyValue = { key: string; value?: Record<string, unknown> };
type DecodedSpan = {
  traceId?: Uint8Array;
  spanId?: Uint8Array;
  parentSpanId?: Uint8Array;
  name: string;
  kind?: number;
  attributes?: KeyValue[];
  events?: Array<{ name?: string; attributes?: KeyValue[] }>;
  links?: Array<{ traceId?: Uint8Array; spanId?: Uint8Array }>;
  status?: { message?: string };
};
type DecodedRequest = {
  resourceSpans?: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: Array<{ spans?: DecodedSpan[] }>;
  }>;
};
const valueOf = (value: Record<string, unknown> | undefined) =>
  String(value?.stringValue ?? value?.intValue ?? value?.boolValue ?? value?.doubleValue ?? '');
const attributesOf = (list: KeyValue[] = []) =>
  Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));
const hex = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString('hex');

/** An OTLP/HTTP receiver (protobuf) on 127.0.0.1 that keeps every span it is sent. */
export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  let requests = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests++;
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      const decoded = ExportRequest.toObject(ExportRequest.decode(Buffer.concat(chunks)), {
        longs: String,
      }) as DecodedRequest;
      for (const resourceSpans of decoded.resourceSpans ?? []) {
        const service = attributesOf(resourceSpans.resource?.attributes)['service.name'] ?? '';
        for (const scope of resourceSpans.scopeSpans ?? [])
          for (const span of scope.spans ?? [])
            spans.push({
              traceId: hex(span.traceId),
              spanId: hex(span.spanId),
              parentSpanId: hex(span.parentSpanId),
              name: span.name,
              kind: span.kind ?? 0,
              service,
              attributes: attributesOf(span.attributes),
              events: (span.events ?? []).map((event) => ({
                name: event.name ?? '',
                attributes: attributesOf(event.attributes),
              })),
              links: (span.links ?? []).map((link) => ({
                traceId: hex(link.traceId),
                spanId: hex(link.spanId),
              })),
              statusMessage: span.status?.message ?? '',
            });
      }
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type OtlpReceiver = Awaited<ReturnType<typeof startOtlpReceiver>>;
