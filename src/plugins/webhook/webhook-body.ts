import type { SubmissionEvent } from '../../../workflows/submission-contract';

/** What the webhook body is built from: a submission joined with its form. */
export type WebhookSource = {
  /** What happened (docs/manage-links.md); for `submission.deleted`, ids and `createdAt` (the deletion's time) only. */
  event: SubmissionEvent;
  submissionId: string;
  createdAt: Date;
  formEndpointToken: string;
  formName: string;
  sourceIp: string | null;
  userAgent: string | null;
  referrer: string | null;
  payload: Record<string, unknown>;
};

/**
 * The body of the specification's "Events" section, serialised once so the signature matches,
 * with `event` added (docs/webhooks.md).
 */
export function webhookBody(source: WebhookSource): string {
  // A deleted submission's body carries its ids and the time only (docs/manage-links.md).
  if (source.event === 'submission.deleted')
    return JSON.stringify({
      event: source.event,
      id: source.submissionId,
      form_id: source.formEndpointToken,
      deleted_at: source.createdAt.toISOString(),
    });
  return JSON.stringify({
    event: source.event,
    id: source.submissionId,
    created_at: source.createdAt.toISOString(),
    form_id: source.formEndpointToken,
    form_name: source.formName,
    ip: source.sourceIp ?? '',
    user_agent: source.userAgent ?? '',
    referrer: source.referrer ?? '',
    data: source.payload,
  });
}
