import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { FAST_DELIVERY_ENV, waitForAttempts } from '../support/delivery-attempts';
import { eventually } from '../support/eventually';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { submitForm } from '../support/ingest-requests';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver';
import { newTenant } from '../support/fixture';
import { startTestStack, type TestStack } from '../support/test-stack';
import { isUntracedRequest, shutdownTracing, startTracing } from '../../src/tracing/start-tracing';
import { tracingEnabled } from '../../src/tracing/trace-hooks';

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

/** A stack with a worker, a form with a webhook to the HTTPS receiver, and one submission. */
async function submitOne(stack: TestStack): Promise<{ submissionId: string; formId: string }> {
  const tenant = await newTenant(stack);
  const form = await tenant.api.createForm({ name: 'Traced' });
  await tenant.api.addWebhook(form.id, `${hook.url}/hook`);
  const submissionId = await submitForm(form, { email: 'ada@example.com', message: 'hello' });
  await waitForAttempts(stack, submissionId, 1, 30_000);
  return { submissionId, formId: form.id };
}

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
    await submitOne(stack);
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

  // worker: the ingest request stores its traceparent, a worker starts the workflow later;
  // serve: the serving process starts it after the answer.
  it.each(['worker', 'serve'])(
    'WORKFLOW_STARTS=%s: one trace from the ingest request to the webhook request',
    async (starts) => {
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = otlp.url;
      process.env.OTEL_BSP_SCHEDULE_DELAY = '100';
      expect(await startTracing()).toBe(true);
      const stack = await startTestStack({
        worker: true,
        env: { ...FAST_DELIVERY_ENV, WORKFLOW_STARTS: starts },
      });
      stacks.push(stack);
      const { submissionId, formId } = await submitOne(stack);

      const named = (spans: ReceivedSpan[], pattern: RegExp) =>
        spans.filter((span) => pattern.test(span.name));
      const spans = await eventually(
        async () => {
          const server = otlp.spans.find(
            (span) => span.kind === 2 && span.attributes['formward.submission_id'] === submissionId,
          );
          if (!server) return null;
          const ours = otlp.spans.filter((span) => span.traceId === server.traceId);
          const done =
            named(ours, /^RunWorkflow:submissionWorkflow$/).length === 1 &&
            named(ours, /^RunActivity:deliverWebhook$/).length === 1 &&
            ours.some(
              (span) =>
                span.kind === 3 && span.attributes['server.port'] === new URL(hook.url).port,
            );
          return done ? { server, ours } : null;
        },
        { timeoutMs: 30_000, what: 'the submission trace' },
      );

      const { server, ours } = spans;
      expect(server.name).toMatch(/^POST/);
      expect(server.service).toBe('formward');
      expect(server.attributes['formward.form_id']).toBe(formId);
      expect(server.attributes['url.path'] ?? server.attributes['http.target']).toMatch(/^\/f\//);
      // The workflow start, the run, and every activity of the run, all in this one trace.
      expect(named(ours, /^StartWorkflow:submissionWorkflow$/)).toHaveLength(1);
      const activities = named(ours, /^RunActivity:/);
      expect(activities.map((span) => span.name)).toEqual(
        expect.arrayContaining(['RunActivity:deliverWebhook']),
      );
      expect(activities.length).toBeGreaterThanOrEqual(2); // spam check and delivery plan too
      expect(named(ours, /^StartActivity:/).length).toBe(activities.length);
      for (const activity of activities)
        expect(activity.attributes['formward.submission_id'], activity.name).toBe(submissionId);
      const delivery = named(ours, /^RunActivity:deliverWebhook$/)[0]!;
      expect(delivery.attributes['formward.plugin_type']).toBe('webhook');
      expect(delivery.attributes['formward.delivery_id']).toMatch(/.+/);
      // The webhook's HTTPS request: a client span under the delivery activity.
      const request = ours.find(
        (span) => span.kind === 3 && span.attributes['server.port'] === new URL(hook.url).port,
      )!;
      expect(request.parentSpanId).toBe(delivery.spanId);
      // Every span but the ingest request's own has its parent in the trace.
      const ids = new Set(ours.map((span) => span.spanId));
      for (const span of ours)
        if (span !== server && span.parentSpanId !== '')
          expect(ids.has(span.parentSpanId), span.name).toBe(true);
      // The probes' and metrics' requests make no spans.
      const probes = otlp.spans.filter((span) =>
        /\/(healthz|readyz|metrics)/.test(span.attributes['url.path'] ?? ''),
      );
      expect(probes).toEqual([]);
    },
  );
});
