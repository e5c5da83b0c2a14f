import type { Request, Response } from 'express';
import { constantTimeEqual, randomToken } from '../../../domain/accounts/secrets';
import { cookieOptions, LOGIN_CSRF_COOKIE, readCookie } from './cookies';

/**
 * CSRF for the signed-out forms (sign-in, sign-up, forgot, reset, resend), which have no
 * session to hold a token: the token is in an HttpOnly cookie and in the form (double
 * submit). Another site can make a browser post, but cannot read or set our cookie.
 */
export function guestCsrfToken(req: Request, res: Response, baseUrl: string): string {
  if (typeof res.locals.guestCsrf === 'string') return res.locals.guestCsrf;
  const existing = readCookie(req.headers.cookie, LOGIN_CSRF_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{32}$/.test(existing)) return existing;
  return renewGuestCsrfToken(res, baseUrl);
}

/** A fresh token (after a refusal), which the page answered with then carries. */
export function renewGuestCsrfToken(res: Response, baseUrl: string): string {
  const token = randomToken(24);
  res.cookie(LOGIN_CSRF_COOKIE, token, cookieOptions(baseUrl, 3600_000));
  res.locals.guestCsrf = token;
  return token;
}

/** True when the form's `_csrf` matches the cookie. */
export function guestCsrfMatches(req: Request, presented: unknown): boolean {
  const expected = readCookie(req.headers.cookie, LOGIN_CSRF_COOKIE);
  return (
    typeof presented === 'string' &&
    expected !== undefined &&
    constantTimeEqual(presented, expected)
  );
}
