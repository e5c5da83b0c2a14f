import type { Config } from '../config/config';
import { deliveryPolicyFor, type DeliveryPolicy } from '../../workflows/delivery-kinds';

/** The delivery policy from the WEBHOOK_* knobs, handed to each submission workflow. */
export function deliveryPolicy(config: Config): DeliveryPolicy {
  return deliveryPolicyFor(config.webhook);
}
