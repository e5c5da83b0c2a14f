import { context, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createTypedPlugin } from '../../src/plugins/manage/plugins';
import { shutdownTracing, startTracing } from '../../src/tracing/start-tracing';
import { request } from '../support/api-client';
import { FAST_DELIVERY_ENV, waitForAttempts } from '../support/delivery-attempts';
import { eventually } from '../support/eventually';
import { newTenant, type Tenant } from '../support/fixture';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { ingestResultOf, postJson } from '../support/ingest-requests';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver';
import { startTestStack, type TestStack } from '../support/test-stack';

// docs/tracing.md, "What is left out" and "Incoming trace context": exported spans carry no
// token of a link, no single sign-on code, no path of a webhook URL; and a request's own
// `traceparent` is a link of a new trace, never its parent, stored or forwarded.

let otlp: OtlpReceiver;
let stack: TestStack;
let tenant: Tenant;
const receivers: HttpsReceiver[] = [];

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = otlp.url;
  process.env.OTEL_BSP_SCHEDULE_DELAY = '100';
  expect(await startTracing()).toBe(true);
  stack = await startTestStack({ worker: true, env: FAST_DELIVERY_ENV });
  tenant = await newTenant(stack);
});
afterAll(async () => {
  await shutdownTracing();
  await stack?.stop();
  for (const receiver of receivers) await receiver.close();
  await otlp?.close();
});

async function receiver() {
  const started = await startHttpsReceiver(inject('stack').certificates);
  receivers.push(started);
  return started;
}

/** Everything a span exports as text: its name, attributes, events and status. */
const textOf = (span: ReceivedSpan) =>
  JSON.stringify([span.name, span.attributes, span.events, span.statusMessage]);

const serverSpanAt = (path: string) =>
  eventually(
    async () =>
      otlp.spans.find((span) => span.kind === 2 && span.attributes['url.path'] === path) ?? null,
    { timeoutMs: 10_000, what: `the server span of ${path}` },
  );

describe('secrets in links', () => {
  it.each([
    ['/reset', 'token'],
    ['/invite', 'token'],
    ['/confirm', 'token'],
    ['/recipients/confirm', 'token'],
    ['/recipients/unsubscribe', 'token'],
    ['/login/oidc/callback', 'code'],
  ])('%s?%s=… exports no span holding the token', async (path, name) => {
    const secret = `SECRET${Math.random().toString(36).slice(2)}`;
    await request('GET', `${stack.url}${path}?${name}=${secret}&state=${secret}x`);
    const server = await serverSpanAt(path);
    expect(server.attributes['url.query']).toBe(`${name}=REDACTED&state=REDACTED`);
    // The test's own client span (undici) too: no span anywhere holds it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(otlp.spans.filter((span) => textOf(span).includes(secret))).toEqual([]);
  });
});

describe('secrets in webhook URLs', () => {
  it("a Slack delivery's client span has the host of the URL, not its path", async () => {
    const slack = await receiver();
    const form = await tenant.api.createForm({ name: 'Slack traced' });
    await createTypedPlugin(
      stack.ctx.orm.em.fork(),
      {
        formId: form.id,
        type: 'slack',
        config: { url: `${slack.url}/services/T1/B2/SLACKSECRET` },
      },
      0,
    );
    const result = ingestResultOf(await postJson(form.json_url, { message: 'hello' }));
    await slack.waitFor(1);
    await waitForAttempts(stack, result.id, 1, 30_000);
    const port = new URL(slack.url).port;
    const delivery = await eventually(
      async () =>
        otlp.spans.find((span) => span.kind === 3 && span.attributes['server.port'] === port) ??
        null,
      { timeoutMs: 10_000, what: "the Slack request's span" },
    );
    expect(delivery.attributes['url.full']).toBe(new URL(slack.url).origin);
    expect(delivery.attributes['url.path']).toBeUndefined();
    expect(otlp.spans.filter((span) => textOf(span).includes('SLACKSECRET'))).toEqual([]);
  });
});

describe("a submitter's traceparent", () => {
  it('is a link of a new trace, and neither stored nor forwarded', async () => {
    const hook = await receiver();
    const form = await tenant.api.createForm({ name: 'Traceparent' });
    await tenant.api.addWebhook(form.id, `${hook.url}/hook`);
    // The submitter traces its own request: undici sends its client span as `traceparent`.
    const submitter = {
      traceId: 'abcdef0123456789abcdef0123456789',
      spanId: '0123456789abcdef',
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
    };
    const res = await context.with(trace.setSpanContext(ROOT_CONTEXT, submitter), () =>
      postJson(form.json_url, { message: 'hello' }),
    );
    const submissionId = ingestResultOf(res).id;
    const [delivered] = await hook.waitFor(1);

    const server = await eventually(
      async () =>
        otlp.spans.find(
          (span) => span.kind === 2 && span.attributes['formward.submission_id'] === submissionId,
        ) ?? null,
      { timeoutMs: 10_000, what: 'the ingest span' },
    );
    // The client span (Node's own fetch) ends after the server span, when the answer's body is
    // read, so it may come in the batch after the server span's: wait for it too.
    const sent = await eventually(
      async () =>
        otlp.spans.find((span) => span.kind === 3 && span.traceId === submitter.traceId) ?? null,
      { timeoutMs: 10_000, what: "the submitter's client span" },
    );
    expect(server.traceId).not.toBe(submitter.traceId);
    expect(server.parentSpanId).toBe('');
    expect(server.links).toEqual([{ traceId: submitter.traceId, spanId: sent.spanId }]);
    // The receiver is handed our trace: the one the workflow start was stored with.
    const forwarded = String(delivered!.headers.traceparent ?? '').split('-');
    expect(forwarded[1]).toBe(server.traceId);
  });
});
