import { describe, expect, it } from 'vitest';
import { loadConfig, WEBHOOK_DEFAULTS } from '../../src/config/config';
import { DEFAULT_WEBHOOK_TIMINGS } from '../../workflows/delivery-kinds';

// Workflow code cannot import src/config: the two copies of the specification's timings agree.
describe('the WEBHOOK_* defaults', () => {
  it('are the timings workflows fall back to', () => {
    expect(WEBHOOK_DEFAULTS).toEqual(DEFAULT_WEBHOOK_TIMINGS);
    expect(loadConfig({}).webhook).toMatchObject(DEFAULT_WEBHOOK_TIMINGS);
  });
});
