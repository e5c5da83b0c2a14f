import type { Request, Response } from 'express';
import { cookieOptions, readCookie } from '../cookies';

/**
 * One-time messages shown on the page a form post redirects to (post/redirect/get). The
 * cookie carries a code, never text, so nobody can make our page say something else.
 */
const MESSAGES = {
  password_changed: { kind: 'ok', text: 'Password changed. Your other sessions were signed out.' },
  email_confirmed: { kind: 'ok', text: 'Your e-mail address is confirmed. You can sign in now.' },
  password_reset: { kind: 'ok', text: 'Your password was changed. Sign in with the new one.' },
  signed_out: { kind: 'ok', text: 'You are signed out.' },
  marked_spam: { kind: 'ok', text: 'Marked as spam.' },
  marked_not_spam: {
    kind: 'ok',
    text: 'Marked as not spam. It was not delivered: replay it to deliver it.',
  },
  submission_deleted: { kind: 'ok', text: 'The submission was deleted.' },
  sender_erased: { kind: 'ok', text: 'Every submission of that sender was erased.' },
  sender_had_nothing: { kind: 'ok', text: 'No submission of that sender was left to erase.' },
  replay_started: {
    kind: 'ok',
    text: 'Delivery started again; its attempts appear in the delivery log.',
  },
  replay_refused_spam: {
    kind: 'error',
    text: 'Spam submissions are not delivered, so they cannot be replayed.',
  },
  replay_unavailable: {
    kind: 'error',
    text: 'The delivery engine is unreachable; try again shortly.',
  },
} as const;

export type FlashCode = keyof typeof MESSAGES;
export type Flash = { kind: 'ok' | 'error'; text: string };

const FLASH_COOKIE = 'formward_flash';

export function setFlash(res: Response, baseUrl: string, code: FlashCode): void {
  res.cookie(FLASH_COOKIE, code, cookieOptions(baseUrl, 60_000));
}

/** The pending message, if any; it is shown once. */
export function takeFlash(req: Request, res: Response): Flash | null {
  const code = readCookie(req.headers.cookie, FLASH_COOKIE);
  if (!code) return null;
  res.clearCookie(FLASH_COOKIE, { path: '/' });
  return Object.hasOwn(MESSAGES, code) ? MESSAGES[code as FlashCode] : null;
}
