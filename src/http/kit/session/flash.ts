import type { Request, Response } from 'express';
import { cookieOptions, readCookie } from './cookies';

/**
 * One-time messages shown on the page a form post redirects to (post/redirect/get). The
 * cookie carries a code, never text, so nobody can make our page say something else.
 */
const MESSAGES = {
  password_changed: { kind: 'ok', text: 'Password changed. Your other sessions were signed out.' },
  email_confirmed: { kind: 'ok', text: 'Your e-mail address is confirmed. You can sign in now.' },
  password_reset: {
    kind: 'ok',
    text:
      'Your password was changed and every other session signed out. API keys do not depend ' +
      'on the password: revoke below any key you do not recognise.',
  },
  signed_out: { kind: 'ok', text: 'You are signed out.' },
  key_revoked: { kind: 'ok', text: 'The key is revoked: the API refuses it from now on.' },
  form_created: { kind: 'ok', text: 'Form created. Paste the embed snippet into your page.' },
  form_updated: { kind: 'ok', text: 'Form saved.' },
  autoresponse_saved: { kind: 'ok', text: 'Autoresponse saved.' },
  // The field builder (forms/form-builder-pages.ts).
  field_added: { kind: 'ok', text: 'Field added.' },
  field_saved: { kind: 'ok', text: 'Field saved.' },
  field_moved: { kind: 'ok', text: 'Field moved.' },
  field_removed: { kind: 'ok', text: 'Field removed.' },
  unknown_fields_saved: { kind: 'ok', text: 'Saved what happens to other fields.' },
  page_saved: { kind: 'ok', text: 'Page saved.' },
  page_removed: { kind: 'ok', text: 'Page removed: its link answers 404 now.' },
  form_deleted: { kind: 'ok', text: 'The form and its submissions are deleted.' },
  captcha_saved: {
    kind: 'ok',
    text: 'CAPTCHA saved. Paste the updated embed snippet into your page.',
  },
  webhook_enabled: { kind: 'ok', text: 'Webhook enabled.' },
  webhook_disabled: { kind: 'ok', text: 'Webhook disabled: it gets no deliveries until enabled.' },
  webhook_deleted: { kind: 'ok', text: 'Webhook deleted. Its delivery log is kept.' },
  plugin_created: { kind: 'ok', text: 'Plugin added: new submissions are delivered to it.' },
  plugin_enabled: { kind: 'ok', text: 'Plugin enabled.' },
  plugin_settings_saved: { kind: 'ok', text: 'Plugin settings saved.' },
  plugin_disabled: { kind: 'ok', text: 'Plugin disabled: it gets no deliveries until enabled.' },
  plugin_deleted: { kind: 'ok', text: 'Plugin deleted. Its delivery log is kept.' },
  replay_started: { kind: 'ok', text: 'Replay started: the new attempts appear here as they run.' },
  replay_spam: { kind: 'error', text: 'Spam is not delivered, so it cannot be replayed.' },
  replay_rate_limited: {
    kind: 'error',
    text: 'Not replayed: the accounts of this account’s owner started as many replays this minute as REPLAY_RATE allows per owner. Try again in a minute.',
  },
  replay_unavailable: {
    kind: 'error',
    text: 'The delivery engine (Temporal) is unreachable; try again shortly.',
  },
  marked_spam: { kind: 'ok', text: 'Marked as spam.' },
  marked_not_spam: {
    kind: 'ok',
    text: 'Marked as not spam. It was not delivered: replay it to deliver it.',
  },
  submission_deleted: { kind: 'ok', text: 'The submission was deleted.' },
  sender_erased: { kind: 'ok', text: 'Every submission of that sender was erased.' },
  sender_had_nothing: { kind: 'ok', text: 'No submission of that sender was left to erase.' },
  // The team (docs/teams.md).
  invitation_sent: { kind: 'ok', text: 'Invitation sent. The link works for 7 days.' },
  invitation_revoked: { kind: 'ok', text: 'Invitation revoked: its link no longer works.' },
  role_changed: { kind: 'ok', text: 'Role changed; it applies from their next request.' },
  member_removed: { kind: 'ok', text: 'Member removed: their access ended at once.' },
  ownership_transferred: { kind: 'ok', text: 'Ownership transferred. You are an admin now.' },
  account_left: {
    kind: 'ok',
    text: 'You left that account. The API keys you created there are revoked.',
  },
  account_switched: { kind: 'ok', text: 'Switched account.' },
  account_created: { kind: 'ok', text: 'Account created; you are its owner.' },
  invitation_accepted: { kind: 'ok', text: 'Invitation accepted: welcome to the account.' },
  invitation_declined: { kind: 'ok', text: 'Invitation declined: whoever sent it sees that.' },
  // Custom domains (docs/custom-domains.md).
  domain_added: {
    kind: 'ok',
    text: 'Domain added. Add its two records to your DNS, then press “Verify now”.',
  },
  domain_verified: { kind: 'ok', text: 'Verified: the domain serves its forms’ pages.' },
  domain_not_verified: {
    kind: 'error',
    text: 'Not verified yet: the records below are not all there (DNS changes can take a while).',
  },
  domain_form_placed: {
    kind: 'ok',
    text: 'The form’s page is on the domain now (and still at its own address).',
  },
  domain_form_removed: {
    kind: 'ok',
    text: 'The form is off the domain; it keeps working at its own address.',
  },
  domain_deleted: {
    kind: 'ok',
    text: 'Domain removed. Its forms keep working on their own addresses.',
  },
} as const;

export type FlashCode = keyof typeof MESSAGES;
export type Flash = { kind: 'ok' | 'error'; text: string };

const FLASH_COOKIE = 'formward_flash';

export function setFlash(res: Response, baseUrl: string, code: FlashCode): void {
  res.cookie(FLASH_COOKIE, code, cookieOptions(baseUrl, 60_000));
}

/** A message's text, for an answer that shows it at once (htmx) instead of after a redirect. */
export const flashText = (code: FlashCode): string => MESSAGES[code].text;

/** The pending message, if any; it is shown once. */
export function takeFlash(req: Request, res: Response): Flash | null {
  const code = readCookie(req.headers.cookie, FLASH_COOKIE);
  if (!code) return null;
  res.clearCookie(FLASH_COOKIE, { path: '/' });
  return Object.hasOwn(MESSAGES, code) ? MESSAGES[code as FlashCode] : null;
}
