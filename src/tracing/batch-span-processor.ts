import { BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace';

/** The OTEL_BSP_* variables (docs/tracing.md) and the batch processor's option each sets. */
const SETTINGS = {
  scheduledDelayMillis: 'OTEL_BSP_SCHEDULE_DELAY',
  exportTimeoutMillis: 'OTEL_BSP_EXPORT_TIMEOUT',
  maxExportBatchSize: 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE',
  maxQueueSize: 'OTEL_BSP_MAX_QUEUE_SIZE',
} as const;

type Setting = keyof typeof SETTINGS;

/** Delays may be zero; a batch or queue of zero spans would never export. */
const lowest = (option: Setting): number => (option.endsWith('Millis') ? 0 : 1);

/**
 * The batch span processor in front of the exporter, sized by the OTEL_BSP_* variables. Since
 * OpenTelemetry JS 3.x the processor reads no environment itself (the SDK reads it only for a
 * processor it builds, and ours sits inside the redaction), so they are read here. A value that
 * is not a number, or below the lowest that makes sense, is ignored: the default holds.
 */
export function batchSpanProcessor(
  exporter: SpanExporter,
  env: NodeJS.ProcessEnv = process.env,
): BatchSpanProcessor {
  const settings: Partial<Record<Setting, number>> = {};
  for (const option of Object.keys(SETTINGS) as Setting[]) {
    const text = env[SETTINGS[option]]?.trim();
    const value = Number(text);
    if (text && Number.isFinite(value) && value >= lowest(option)) settings[option] = value;
  }
  return new BatchSpanProcessor({ exporter, ...settings });
}
