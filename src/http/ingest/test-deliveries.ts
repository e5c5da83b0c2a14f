import type { z } from 'zod';
import type { DeliverySummary } from '../../../workflows/submission-contract';
import type { deliveryResultSchema } from './ingest-result';

/** A delivery of a `?test=true` run as the ingest answer documents it (snake_case, like the API). */
export type TestDeliveryView = z.output<typeof deliveryResultSchema>;

/**
 * The summary as workers released before the camelCase result (f520858) return it: during a
 * rolling upgrade a new serve process may wait on a workflow an old worker ran.
 */
type ReleasedSummary = Partial<TestDeliveryView>;

export function testDeliveriesView(
  deliveries: (DeliverySummary | ReleasedSummary)[],
): TestDeliveryView[] {
  return deliveries.map((delivery) => {
    if (!('pluginId' in delivery)) return delivery as TestDeliveryView;
    return {
      plugin_id: delivery.pluginId,
      plugin_type: delivery.pluginType,
      ok: delivery.ok,
      status_code: delivery.statusCode,
      error: delivery.error,
      duration_ms: delivery.durationMs,
      attempts: delivery.attempts,
      delivery_id: delivery.deliveryId,
    };
  });
}
