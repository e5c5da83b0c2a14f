import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { FAST_DELIVERY_ENV } from '../support/delivery-attempts';
import { eventually } from '../support/eventually';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver';
import { startTestStack, type TestStack } from '../support/test-stack';
import { isUntracedRequest, shutdownTracing, startTracing } from '../../src/tracing/start-tracing';
import { tracingEnabled } from '../../src/tracing/trace-hooks';
import {
  completeSubmissionTrace,
  expectNoProbeSpans,
  expectSubmissionTrace,
  submitOne,
} from './traced-submission';

// docs/tracing.md: with OTEL_EXPORTER_OTLP_ENDPOINT set, one submission is one trace from the
// ingest request through its workflow, each activity and the webhook's HTTPS request, exported
// over OTLP/HTTP (protobuf) to a receiver; unset, nothing is registered and nothing exported.
// The tracer provider is process-wide, so "off" runs first.

let otlp: OtlpReceiver;
let hook: HttpsReceiver;
beforeAll(async () => {
  otlp = await startOtlpReceiver();
  hook = await startHttpsReceiver(inject('stack').certificates);
});
afterAll(async () => {
  await shutdownTracing();
  await hook?.close();
  await otlp?.close();
});

describe('untraced requests', () => {
  it('are the probes, metrics and static assets, not ingest or the API', () => {
    for (const url of ['/healthz', '/readyz', '/metrics', '/static/app.css', '/assets/x.js?v=1'])
      expect(isUntracedRequest({ url }), url).toBe(true);
    for (const url of ['/f/abc', '/json/abc', '/api/forms', '/dashboard', '/login?next=/x.css'])
      expect(isUntracedRequest({ url }), url).toBe(false);
  });
});

describe('tracing off (OTEL_EXPORTER_OTLP_ENDPOINT unset)', () => {
  let stack: TestStack;
  afterAll(async () => stack?.stop());

  it('registers no tracer provider and exports nothing', async () => {
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    expect(await startTracing()).toBe(false);
    stack = await startTestStack({ worker: true, env: FAST_DELIVERY_ENV });
    await submitOne(stack, hook.url);
    expect(tracingEnabled()).toBe(false);
    // The global provider is still the API's no-op one: a span records nothing.
    expect(trace.getTracer('probe').startSpan('probe').isRecording()).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(otlp.requests()).toBe(0);
  });
});

describe('tracing on', () => {
  const stacks: TestStack[] = [];
  afterAll(async () => {
    for (const stack of stacks) await stack.stop();
  });

  // The ingest request stores its traceparent; a worker starts the workflow later in it.
  it('one trace from the ingest request to the webhook request', async () => {
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = otlp.url;
    process.env.OTEL_BSP_SCHEDULE_DELAY = '100';
    expect(await startTracing()).toBe(true);
    const stack = await startTestStack({
      worker: true,
      env: FAST_DELIVERY_ENV,
    });
    stacks.push(stack);
    const { submissionId, formId } = await submitOne(stack, hook.url);

    const trace = await eventually(
      async () => completeSubmissionTrace(otlp.spans, { submissionId, hookUrl: hook.url }),
      { timeoutMs: 30_000, what: 'the submission trace' },
    );
    expectSubmissionTrace(trace, { submissionId, formId, hookUrl: hook.url });
    expectNoProbeSpans(otlp.spans);
  });
});
