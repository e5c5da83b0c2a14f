import { Context } from '@temporalio/activity';

/**
 * This attempt's number as the receiver (`x-formward-attempt`), the delivery log and the logs
 * see it: Temporal counts this activity's own attempts, and the attempts made before it under
 * the same delivery id (a local first attempt, a recovery's recorded ones) are `attemptOffset`.
 * The one place the number is computed.
 */
export function attemptNumberOf(attemptOffset = 0): number {
  return attemptOffset + Context.current().info.attempt;
}
