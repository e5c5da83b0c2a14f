import { expect } from 'vitest';
import { waitForAttempts } from '../support/delivery-attempts';
import { newTenant } from '../support/fixture';
import { submitForm } from '../support/ingest-requests';
import type { ReceivedSpan } from '../support/otlp-receiver';
import type { TestStack } from '../support/test-stack';

// One submission and what its trace must hold (docs/tracing.md, "What a trace contains"),
// whoever received the spans: the in-test OTLP receiver or a real Jaeger.

/** A form with a webhook to `hookUrl` on a stack with a worker, one submission, delivered. */
export async function submitOne(
  stack: TestStack,
  hookUrl: string,
): Promise<{ submissionId: string; formId: string }> {
  const tenant = await newTenant(stack);
  const form = await tenant.api.createForm({ name: 'Traced' });
  await tenant.api.addWebhook(form.id, `${hookUrl}/hook`);
  const submissionId = await submitForm(form, { email: 'ada@example.com', message: 'hello' });
  await waitForAttempts(stack, submissionId, 1, 30_000);
  return { submissionId, formId: form.id };
}

export type SubmissionTrace = { server: ReceivedSpan; ours: ReceivedSpan[] };
type Submission = { submissionId: string; formId: string; hookUrl: string };

const named = (spans: ReceivedSpan[], pattern: RegExp) =>
  spans.filter((span) => pattern.test(span.name));
/** The webhook's HTTPS request: a client span to the receiver's port. */
const isWebhookRequest = (span: ReceivedSpan, hookUrl: string) =>
  span.kind === 3 && span.attributes['server.port'] === new URL(hookUrl).port;

/**
 * The submission's trace among `spans` once it is complete (ingest span, workflow run,
 * delivery activity and webhook request all there); null while it is not.
 */
export function completeSubmissionTrace(
  spans: ReceivedSpan[],
  { submissionId, hookUrl }: Omit<Submission, 'formId'>,
): SubmissionTrace | null {
  const server = spans.find(
    (span) => span.kind === 2 && span.attributes['formward.submission_id'] === submissionId,
  );
  if (!server) return null;
  const ours = spans.filter((span) => span.traceId === server.traceId);
  const done =
    named(ours, /^RunWorkflow:submissionWorkflow$/).length === 1 &&
    named(ours, /^RunActivity:deliverWebhook$/).length === 1 &&
    ours.some((span) => isWebhookRequest(span, hookUrl));
  return done ? { server, ours } : null;
}

/** One trace from the ingest request through the workflow and its activities to the webhook. */
export function expectSubmissionTrace(
  { server, ours }: SubmissionTrace,
  { submissionId, formId, hookUrl }: Submission,
): void {
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
  const request = ours.find((span) => isWebhookRequest(span, hookUrl))!;
  expect(request.parentSpanId).toBe(delivery.spanId);
  // Every span but the ingest request's own has its parent in the trace.
  const ids = new Set(ours.map((span) => span.spanId));
  for (const span of ours)
    if (span !== server && span.parentSpanId !== '')
      expect(ids.has(span.parentSpanId), span.name).toBe(true);
}

/** The probes' and metrics' requests make no spans. */
export function expectNoProbeSpans(spans: ReceivedSpan[]): void {
  const probes = spans.filter((span) =>
    /\/(healthz|readyz|metrics)/.test(span.attributes['url.path'] ?? ''),
  );
  expect(probes).toEqual([]);
}
