/** A submission row as read for the API (joined with its form's token). */
export type SubmissionRow = {
  id: string;
  form_id: string;
  form_endpoint_token: string;
  payload_json: Record<string, unknown>;
  special_normalized: Record<string, string> | null;
  source_ip: string | null;
  user_agent: string | null;
  referrer: string | null;
  is_spam: boolean;
  spam_reason: string | null;
  created_at: Date;
  updated_at: Date;
};
