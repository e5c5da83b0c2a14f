import { describe, expect, it } from 'vitest';
import { testDeliveriesView } from '../../src/http/ingest/test-deliveries';

const answer = {
  plugin_id: '7',
  plugin_type: 'webhook',
  ok: false,
  status_code: 500,
  error: 'receiver answered 500',
  duration_ms: 12,
  attempts: 1,
  delivery_id: 'dlv_abc',
};

describe('the ?test=true deliveries view', () => {
  it('maps the workflow’s camelCase summary to the documented snake_case answer', () => {
    const view = testDeliveriesView([
      {
        pluginId: '7',
        pluginType: 'webhook',
        ok: false,
        statusCode: 500,
        error: 'receiver answered 500',
        durationMs: 12,
        attempts: 1,
        deliveryId: 'dlv_abc',
      },
    ]);
    expect(view).toEqual([answer]);
  });

  it('passes through the snake_case summary of a worker released before the change', () => {
    expect(testDeliveriesView([{ ...answer }])).toEqual([answer]);
  });
});
