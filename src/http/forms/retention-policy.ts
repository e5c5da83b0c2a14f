import type { Form } from '../../domain/entities';
import type { NextPurge } from '../../temporal/retention-schedule';
import { formatTime } from '../kit/chrome/format-time';

/** A form's retention policy as its page shows it (docs/retention.md). */
export type RetentionPolicyView = {
  /** e.g. `30 days`, or `for ever`. */
  keep: string;
  deleteAfterDelivery: boolean;
  spamRetentionDays: number;
  /** The next hourly purge, or why it is not known. */
  nextPurge: string;
};

function nextPurgeText(next: NextPurge): string {
  if (!next.known) {
    return next.reason === 'missing'
      ? 'not scheduled yet (a worker creates the schedule when it starts)'
      : 'unknown (Temporal is not reachable now)';
  }
  if (next.paused) return 'paused in Temporal';
  return next.at ? formatTime(next.at) : 'none planned';
}

export function retentionPolicyView(
  form: Form,
  spamRetentionDays: number,
  next: NextPurge,
): RetentionPolicyView {
  const days = form.retentionDays;
  return {
    keep: days === null ? 'for ever' : `${days} day${days === 1 ? '' : 's'}`,
    deleteAfterDelivery: form.deleteAfterDelivery,
    spamRetentionDays,
    nextPurge: nextPurgeText(next),
  };
}
