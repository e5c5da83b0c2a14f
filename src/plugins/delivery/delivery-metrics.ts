import {
  deliveriesTotal,
  deliveryAttemptDuration,
  submissionDeliverySeconds,
} from '../../domain/metrics/registry';
import { REDELIVERY, type DeliveryInput } from '../../../workflows/submission-contract';

/**
 * The metrics of one recorded attempt (docs/metrics.md): its duration, and when it settles
 * the delivery, the final outcome; a live delivery's success also times stored → delivered
 * (a replay's or a test's would measure the replay, not the service).
 */
export function recordDeliveryMetrics(
  input: DeliveryInput,
  result: { ok: boolean; durationMs: number },
  attempt: { pluginType: string; storedAt: Date; final: boolean },
): void {
  const plugin_type = attempt.pluginType;
  deliveryAttemptDuration.observe(
    { plugin_type, outcome: result.ok ? 'success' : 'failure' },
    result.durationMs / 1000,
  );
  if (!result.ok && !attempt.final) return;
  deliveriesTotal.inc({ plugin_type, outcome: result.ok ? 'delivered' : 'failed' });
  if (result.ok && input.mode !== REDELIVERY && input.mode !== 'test')
    submissionDeliverySeconds.observe(
      { plugin_type },
      Math.max(0, (Date.now() - attempt.storedAt.getTime()) / 1000),
    );
}
