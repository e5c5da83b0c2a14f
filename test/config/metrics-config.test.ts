import { describe, expect, it } from 'vitest';
import { workerEnvironment } from '../../src/cli/worker-supervisor';
import { loadConfig } from '../../src/config/config';

// METRICS_PORT and METRICS_HOST (docs/metrics.md): off by default, and `formward start`'s
// worker process without a listener of its own (its parent serves its series).

describe('the metrics configuration', () => {
  it('is off unless METRICS_PORT is set, on 127.0.0.1 by default', () => {
    expect(loadConfig({}).metrics).toBeNull();
    expect(loadConfig({ METRICS_PORT: ' ' }).metrics).toBeNull();
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({
      host: '127.0.0.1',
      port: 9464,
    });
    expect(loadConfig({ METRICS_PORT: '0', METRICS_HOST: '0.0.0.0' }).metrics).toEqual({
      host: '0.0.0.0',
      port: 0,
    });
    expect(() => loadConfig({ METRICS_PORT: 'nine' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
  });

  it("gives start's worker process no metrics listener, and tells it whether to collect", () => {
    const parent = {
      databaseUrl: 'postgres://db/formward',
      temporalAddress: '127.0.0.1:7233',
      temporalUiUrl: null,
      dataDir: '/tmp/data',
      urls: { base: 'http://127.0.0.1:3000', ingest: 'http://127.0.0.1:3000' },
      listener: { address: '127.0.0.1', port: 3000 },
    };
    const saved = process.env.METRICS_PORT;
    process.env.METRICS_PORT = '9464';
    try {
      const env = workerEnvironment({ ...parent, metrics: true });
      expect(env.METRICS_PORT).toBeUndefined();
      expect(JSON.parse(env.FORMWARD_SUPERVISOR!)).toMatchObject({ metrics: true });
      const off = workerEnvironment({ ...parent, metrics: false });
      expect(JSON.parse(off.FORMWARD_SUPERVISOR!)).toMatchObject({ metrics: false });
    } finally {
      if (saved === undefined) delete process.env.METRICS_PORT;
      else process.env.METRICS_PORT = saved;
    }
  });
});
