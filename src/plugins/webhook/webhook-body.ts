/** What the webhook body is built from: a submission joined with its form. */
export type WebhookSource = {
  submissionId: string;
  createdAt: Date;
  formEndpointToken: string;
  formName: string;
  sourceIp: string | null;
  userAgent: string | null;
  referrer: string | null;
  payload: Record<string, unknown>;
};

/** The body of the specification's "Events" section, serialised once so the signature matches. */
export function webhookBody(source: WebhookSource): string {
  return JSON.stringify({
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
