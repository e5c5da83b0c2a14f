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

/** Our cookies: HttpOnly, SameSite=Lax, and Secure when the public URL is HTTPS. */
export function cookieOptions(baseUrl: string, maxAgeMs: number) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: baseUrl.startsWith('https://'),
    path: '/',
    maxAge: maxAgeMs,
  };
}
