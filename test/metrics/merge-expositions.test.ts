import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { mergeExpositions, type ProcessExposition } from '../../src/runtime/metrics/exposition';

// How `formward start` serves two processes' metrics as one text (docs/metrics.md): every
// family once, each process's samples kept as they are, labelled by process.

/** A process's registry as src/domain/metrics/registry.ts builds one, with a few samples. */
async function processExposition(name: 'serve' | 'worker', sdk = ''): Promise<ProcessExposition> {
  const registry = new Registry();
  registry.setDefaultLabels({ process: name });
  collectDefaultMetrics({ register: registry });
  const counter = new Counter({
    name: 'formward_deliveries_total',
    help: 'Deliveries',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  counter.inc({ outcome: 'delivered' }, name === 'serve' ? 0 : 3);
  new Histogram({
    name: 'attempt_seconds',
    help: 'Attempts',
    buckets: [1],
    registers: [registry],
  }).observe(name === 'serve' ? 0.5 : 2);
  return { families: await registry.getMetricsAsJSON(), sdk };
}

const lines = (text: string, prefix: string) =>
  text.split('\n').filter((line) => line.startsWith(prefix));

describe('mergeExpositions', () => {
  it('puts each family once, with the samples of both processes together', async () => {
    const text = await mergeExpositions([
      await processExposition('serve'),
      await processExposition(
        'worker',
        '# HELP temporal_x x\n# TYPE temporal_x gauge\ntemporal_x 1\n',
      ),
    ]);
    const helps = lines(text, '# HELP ').map((line) => line.split(' ')[2]);
    expect(new Set(helps).size).toBe(helps.length);
    expect(lines(text, '# TYPE ').map((line) => line.split(' ')[2])).toEqual(helps);
    expect(lines(text, 'formward_deliveries_total')).toEqual([
      'formward_deliveries_total{outcome="delivered",process="serve"} 0',
      'formward_deliveries_total{outcome="delivered",process="worker"} 3',
    ]);
    // Not summed: each process's histogram as it is.
    expect(lines(text, 'attempt_seconds_sum')).toEqual([
      'attempt_seconds_sum{process="serve"} 0.5',
      'attempt_seconds_sum{process="worker"} 2',
    ]);
    // prom-client's own aggregators would leave it out.
    expect(lines(text, 'process_start_time_seconds{')).toHaveLength(2);
    // A family's samples follow its TYPE line with no other family in between.
    const body = text.split('\n');
    const first = body.findIndex((line) => line.startsWith('formward_deliveries_total'));
    expect(body[first - 1]).toBe('# TYPE formward_deliveries_total counter');
    expect(body[first + 1]).toMatch(/^formward_deliveries_total\{.*process="worker"/);
    expect(text.endsWith('temporal_x 1\n')).toBe(true);
  });

  it('serves one process alone as it is', async () => {
    const text = await mergeExpositions([await processExposition('serve')]);
    expect(lines(text, 'formward_deliveries_total')).toEqual([
      'formward_deliveries_total{outcome="delivered",process="serve"} 0',
    ]);
    expect(text).not.toContain('process="worker"');
  });
});
