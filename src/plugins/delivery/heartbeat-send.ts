import { Context } from '@temporalio/activity';
import type { SendResult, OutboundSender } from '../../outbound/sender';

const HEARTBEAT_EVERY_MS = 1_000;

/**
 * One request through the guarded sender (POST unless the request says). Temporal delivers a cancellation (workflow cancelled,
 * worker shutting down) only in answer to a heartbeat; the SDK throttles these, so beating
 * often costs nothing. A local activity (a delivery's first attempt) gets its cancellation
 * without them, and the worker logs every heartbeat it sends as failed.
 */
export async function sendWithHeartbeat(
  sender: OutboundSender,
  request: Parameters<OutboundSender['send']>[0],
): Promise<SendResult> {
  const context = Context.current();
  if (context.info.isLocal) {
    return sender.send({ ...request, signal: context.cancellationSignal });
  }
  context.heartbeat();
  const beat = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
  return sender
    .send({ ...request, signal: context.cancellationSignal })
    .finally(() => clearInterval(beat));
}
