// What crosses the submission workflow's boundary: its input and result, the values its
// activities take and return (their failure types: failure-types.ts). Pure, so workflow code, the
// activities and the starters in src/temporal all import it.
import type { DeliveryPolicy } from './delivery-kinds';

/**
 * The re-delivery mode (`POST /api/submissions/{id}/replay`, a recovery's children): deliver
 * again, no spam check, no e-mail. Its value is the wire value `'replay'`, kept as it is in
 * workflow inputs and results and in recorded histories; named so it is not read as Temporal's
 * history replay.
 */
export const REDELIVERY = 'replay';

/** live (ingest), test (`?test=true`: one attempt each), or REDELIVERY. */
export type DeliveryMode = 'live' | 'test' | typeof REDELIVERY;

/**
 * Recovery of one plugin's failed or skipped delivery (docs/recovery.md): the workflow (mode
 * REDELIVERY) delivers to that plugin only, under the delivery id (`webhook-id`) of the failed
 * delivery, numbering its attempts on from `attemptOffset` so the old records stay.
 */
export type RecoverTarget = {
  pluginId: string;
  pluginType: string;
  deliveryId: string;
  attemptOffset: number;
};

/**
 * What a delivery tells plugins happened (docs/manage-links.md): a new submission, its
 * submitter's edit, or its submitter's delete. Absent in inputs made before events existed:
 * `submission.created`.
 */
export type SubmissionEvent = 'submission.created' | 'submission.updated' | 'submission.deleted';

/**
 * A submission its submitter deleted: all a `submission.deleted` delivery knows of it, since
 * its row is gone (ids and the time only; the form's endpoint token is the body's `form_id`).
 */
export type DeletedSubmission = { formId: string; formEndpointToken: string; deletedAt: string };

export type SubmissionWorkflowInput = {
  submissionId: string;
  mode?: DeliveryMode;
  delivery?: DeliveryPolicy;
  recover?: RecoverTarget;
  /** `submission.updated`: a run of mode REDELIVERY for the edit that made `version` current. */
  event?: SubmissionEvent;
  version?: number;
  /** With `submission.deleted`: the deleted submission's ids. */
  deleted?: DeletedSubmission;
};

export type SpamVerdict = { isSpam: boolean; reason: string | null };

export type DeliveryTarget = { pluginId: string; pluginType: string };

/**
 * What a submission's workflow delivers: its form's enabled plugins, whether to e-mail, whether
 * to send the autoresponse (absent from plans recorded before it existed), and
 * `deleteAfterDelivery` when the form deletes delivered submissions (docs/retention.md; absent
 * in results recorded before it, and when false).
 */
export type DeliveryPlan = {
  targets: DeliveryTarget[];
  notify: boolean;
  autorespond?: boolean;
  deleteAfterDelivery?: boolean;
};

/** The autoresponse's activity input: one delivery (its id stays for every retry), no plugin. */
export type AutoresponseInput = {
  submissionId: string;
  deliveryId: string;
  mode: DeliveryMode;
  maxAttempts: number;
};

/**
 * The autoresponse as the workflow settled it (docs/autoresponse.md). `skipped`: why nothing
 * was sent (`not_configured`, `no_email`, `interval`, `unsubscribed`, `mail_budget_exhausted`,
 * `spam`, `submission_missing`); `error`: the last attempt's failure.
 */
export type AutoresponseResult = {
  sent: boolean;
  deliveryId: string | null;
  skipped?: string;
  error?: string;
};

export type DeliveryInput = {
  submissionId: string;
  pluginId: string;
  deliveryId: string;
  mode: DeliveryMode;
  /** The retry policy's attempt limit, so the last failed attempt is recorded as `failed`. */
  maxAttempts: number;
  /** Attempts already recorded under this delivery id (a recovery); recorded ones follow on. */
  attemptOffset?: number;
  /** What the delivery tells the plugin happened; absent: `submission.created`. */
  event?: SubmissionEvent;
  /** With `submission.deleted`: the submission's row is gone, these ids are all there is. */
  deleted?: DeletedSubmission;
};

/** One delivery's outcome; also the details of the failure thrown when it did not succeed. */
export type DeliveryOutcome = {
  pluginId: string;
  deliveryId: string;
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number | null;
  attempt: number;
  /**
   * A failed attempt's `Retry-After` as the next retry's delay (capped): Temporal keeps it
   * from the workflow, which times the retries after a local first attempt itself.
   */
  retryAfterMs?: number;
};

export type NotificationResult = {
  sent: boolean;
  /** The addresses the message went to (the server accepted). */
  recipients: string[];
  messageId: string | null;
  /**
   * Why nothing was sent: `no_recipients`, `no_confirmed_recipients`, `mail_budget_exhausted`,
   * `spam`, `submission_missing` or `form_missing`.
   */
  skipped?: string;
  /** Addresses the server refused while accepting the message for the others. */
  rejected?: string[];
};

/** One plugin's delivery as the workflow settled it (`?test=true` answers it in snake_case). */
export type DeliverySummary = {
  pluginId: string;
  pluginType: string;
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number | null;
  /** Attempts made; 0 when none reached the receiver (plugin gone, type not delivered). */
  attempts: number;
  /** The `webhook-id` the receiver saw; null when nothing was sent. */
  deliveryId: string | null;
};

export type SubmissionWorkflowResult = {
  submissionId: string;
  mode: DeliveryMode;
  spam: SpamVerdict;
  deliveries: DeliverySummary[];
  notification: NotificationResult | { sent: false; error: string } | null;
  /** Absent in runs started before the autoresponse, and when the plan had none to send. */
  autoresponse?: AutoresponseResult;
};
