import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind } from '@opentelemetry/api';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// docs/tracing.md, "What a trace contains": outgoing requests make client spans, whether they
// go through Node's own fetch (its bundled undici) or the undici package (webhook deliveries).
// The instrumentation listens on undici's diagnostics channels, which both publish to.

let server: http.Server;
let url: string;
const exporter = new InMemorySpanExporter();
const instrumentation = new UndiciInstrumentation();

beforeAll(async () => {
  server = http.createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  // A fetch before the instrumentation is enabled: later requests are traced all the same.
  await (await fetch(url)).text();
  instrumentation.setTracerProvider(
    new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }),
  );
  instrumentation.enable();
});
afterAll(async () => {
  instrumentation.disable();
  await new Promise((resolve) => server.close(resolve));
});

const clientSpansTo = (target: string) =>
  exporter
    .getFinishedSpans()
    .filter((span) => span.kind === SpanKind.CLIENT && span.attributes['url.full'] === target);

describe('client spans of outgoing requests', () => {
  it("are made for Node's own fetch", async () => {
    exporter.reset();
    const res = await fetch(url, { method: 'POST', body: 'hello' });
    await res.text();
    const [span] = clientSpansTo(url);
    expect(span?.name).toBe('POST');
    expect(span?.attributes['http.response.status_code']).toBe(200);
  });

  it('are made for the undici package', async () => {
    exporter.reset();
    const res = await undiciRequest(url, { method: 'POST', body: 'hello' });
    await res.body.text();
    const [span] = clientSpansTo(url);
    expect(span?.name).toBe('POST');
    expect(span?.attributes['http.response.status_code']).toBe(200);
  });
});
