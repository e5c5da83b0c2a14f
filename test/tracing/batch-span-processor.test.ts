import { TracerProvider, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { describe, expect, it, vi } from 'vitest';
import { batchSpanProcessor } from '../../src/tracing/batch-span-processor';

// docs/tracing.md, "Turning it on": OTEL_BSP_* size the batch processor in front of the exporter.

function recordingExporter() {
  const exported: string[] = [];
  const exporter: SpanExporter = {
    export(spans, done) {
      exported.push(...spans.map((span) => span.name));
      done({ code: 0 });
    },
    shutdown: async () => {},
  };
  return { exported, exporter };
}

function endSpans(processor: SpanProcessor, names: string[]) {
  const tracer = new TracerProvider({ spanProcessors: [processor] }).getTracer('test');
  for (const name of names) tracer.startSpan(name).end();
}

describe('the batch span processor', () => {
  it('exports after OTEL_BSP_SCHEDULE_DELAY, not the default five seconds', async () => {
    const { exported, exporter } = recordingExporter();
    const processor = batchSpanProcessor(exporter, { OTEL_BSP_SCHEDULE_DELAY: '20' });
    endSpans(processor, ['one']);
    await vi.waitFor(() => expect(exported).toEqual(['one']), { timeout: 1_000 });
    await processor.shutdown();
  });

  it('exports a batch as soon as it holds OTEL_BSP_MAX_EXPORT_BATCH_SIZE spans', async () => {
    const { exported, exporter } = recordingExporter();
    const processor = batchSpanProcessor(exporter, {
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2',
      OTEL_BSP_SCHEDULE_DELAY: '60000',
    });
    endSpans(processor, ['a', 'b', 'c']);
    await vi.waitFor(() => expect(exported).toEqual(['a', 'b']), { timeout: 1_000 });
    await processor.shutdown();
    expect(exported).toEqual(['a', 'b', 'c']);
  });

  it('exports once OTEL_BSP_MAX_QUEUE_SIZE spans wait (a batch never outgrows the queue)', async () => {
    const { exported, exporter } = recordingExporter();
    const processor = batchSpanProcessor(exporter, {
      OTEL_BSP_MAX_QUEUE_SIZE: '2',
      OTEL_BSP_SCHEDULE_DELAY: '60000',
    });
    endSpans(processor, ['a', 'b', 'c']);
    await vi.waitFor(() => expect(exported).toEqual(['a', 'b']), { timeout: 1_000 });
    await processor.shutdown();
  });

  it('keeps the defaults for values that are not a number, or too low', async () => {
    const { exported, exporter } = recordingExporter();
    const processor = batchSpanProcessor(exporter, {
      OTEL_BSP_SCHEDULE_DELAY: 'soon',
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '0',
      OTEL_BSP_MAX_QUEUE_SIZE: '-1',
    });
    endSpans(processor, ['one', 'two']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(exported).toEqual([]);
    await processor.shutdown();
    expect(exported).toEqual(['one', 'two']);
  });
});
