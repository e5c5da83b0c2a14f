import type { z } from 'zod';
import type { DeliverySummary } from '../../../workflows/submission-contract';
import type { deliveryResultSchema } from '../schemas/responses';

/** A delivery of a `?test=true` run as the ingest answer documents it (snake_case, like the API). */
export type TestDeliveryView = z.output<typeof deliveryResultSchema>;

export function testDeliveriesView(deliveries: DeliverySummary[]): TestDeliveryView[] {
  return deliveries.map((delivery) => ({
    plugin_id: delivery.pluginId,
    plugin_type: delivery.pluginType,
    ok: delivery.ok,
    status_code: delivery.statusCode,
    error: delivery.error,
    duration_ms: delivery.durationMs,
    attempts: delivery.attempts,
    delivery_id: delivery.deliveryId,
  }));
}
