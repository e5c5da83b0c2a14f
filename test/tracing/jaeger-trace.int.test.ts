import { afterAll, beforeAll, describe, it, inject } from 'vitest';
import { FAST_DELIVERY_ENV } from '../support/delivery-attempts';
import { eventually } from '../support/eventually';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { jaegerBinary, startJaeger, type Jaeger } from '../support/jaeger';
import { startTestStack, type TestStack } from '../support/test-stack';
import { shutdownTracing, startTracing } from '../../src/tracing/start-tracing';
import {
  completeSubmissionTrace,
  expectNoProbeSpans,
  expectSubmissionTrace,
  submitOne,
} from './traced-submission';

// docs/tracing.md against a real OTLP receiver: Jaeger v2 (an OpenTelemetry Collector
// distribution, scripts/jaeger.sh) stores what serve and the worker export, and its query API
// must give back one trace per submission, from the ingest request to the webhook request.
// Outside CI a machine without the binary skips this (say so); in CI (`CI` set) it must run.

const binary = jaegerBinary();
if (!binary && !process.env.CI)
  console.warn('no Jaeger binary (bash scripts/jaeger.sh builds one, or set JAEGER): skipped');

describe.skipIf(!binary && !process.env.CI)('traces in a real Jaeger', () => {
  let jaeger: Jaeger;
  let hook: HttpsReceiver;
  let stack: TestStack;
  beforeAll(async () => {
    if (!binary) throw new Error('no Jaeger binary: run scripts/jaeger.sh or set JAEGER');
    jaeger = await startJaeger(binary);
    hook = await startHttpsReceiver(inject('stack').certificates);
  });
  afterAll(async () => {
    await stack?.stop();
    await shutdownTracing();
    await hook?.close();
    await jaeger?.stop();
  });

  it('holds one trace from the ingest request through the workflow to the webhook request', async () => {
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = jaeger.otlpUrl;
    process.env.OTEL_BSP_SCHEDULE_DELAY = '100';
    if (!(await startTracing())) throw new Error('tracing did not start');
    stack = await startTestStack({ worker: true, env: FAST_DELIVERY_ENV });
    const { submissionId, formId } = await submitOne(stack, hook.url);

    const hookUrl = hook.url;
    const trace = await eventually(
      async () =>
        completeSubmissionTrace(await jaeger.spans('formward'), { submissionId, hookUrl }),
      { timeoutMs: 30_000, what: "the submission's trace in Jaeger" },
    );
    expectSubmissionTrace(trace, { submissionId, formId, hookUrl });
    expectNoProbeSpans(await jaeger.spans('formward'));
  });
});
