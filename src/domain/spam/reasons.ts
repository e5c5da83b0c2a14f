/**
 * Why a submission was judged spam, as stored in `submissions.spam_reason` and counted by
 * `/api/public/spam_metrics`. `honeypot` and `captcha_unverified` (the CAPTCHA provider did not
 * answer in time, docs/captcha.md) are decided at ingest; the others by the spam activity.
 */
export const SPAM_REASONS = [
  'honeypot',
  'too_many_links',
  'spam_phrase',
  'markup',
  'too_fast',
  'burst',
  'captcha_unverified',
] as const;

export type SpamReason = (typeof SPAM_REASONS)[number];
