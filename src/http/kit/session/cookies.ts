import type { Response } from 'express';
import { SESSION_TTL_MS } from '../../../domain/accounts/sessions';

/** Reads one cookie from a Cookie header (we only ever need one or two). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) {
      try {
        return decodeURIComponent(part.slice(index + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export const SESSION_COOKIE = 'formward_session';
export const LOGIN_CSRF_COOKIE = 'formward_login_csrf';

const servedOverHttps = (baseUrl: string) => baseUrl.startsWith('https://');

/**
 * The session cookie's name: over HTTPS `__Host-formward_session`, which browsers accept only
 * with Secure, Path=/ and no Domain, so a sibling subdomain or a plain-http page cannot plant
 * or overwrite it; over http (development) the plain name, as `__Host-` needs Secure. Only
 * this name is read in each mode.
 */
export function sessionCookieName(baseUrl: string): string {
  return servedOverHttps(baseUrl) ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
}

/** The session token the request's cookie carries under this site's name. */
export function readSessionCookie(header: string | undefined, baseUrl: string) {
  return readCookie(header, sessionCookieName(baseUrl));
}

/** Our cookies: HttpOnly, SameSite=Lax, and Secure when the public URL is HTTPS. */
export function cookieOptions(baseUrl: string, maxAgeMs: number) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: servedOverHttps(baseUrl),
    path: '/',
    maxAge: maxAgeMs,
  };
}

/** Removes a cookie set with cookieOptions (a `__Host-` one needs Secure to be replaced). */
export function clearCookieOptions(baseUrl: string) {
  return { httpOnly: true, sameSite: 'lax' as const, secure: servedOverHttps(baseUrl), path: '/' };
}

/** Hands the browser a new session (and drops the signed-out forms' CSRF cookie). */
export function setSessionCookie(res: Response, baseUrl: string, token: string): void {
  res.clearCookie(LOGIN_CSRF_COOKIE, clearCookieOptions(baseUrl));
  res.cookie(sessionCookieName(baseUrl), token, cookieOptions(baseUrl, SESSION_TTL_MS));
}
