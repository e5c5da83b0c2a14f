import { expect } from 'vitest';
import { request, type ApiResponse } from './api-client';

/** The value of one cookie among Set-Cookie headers, with its attributes. */
export function setCookie(res: ApiResponse, name: string): string | undefined {
  return res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
}

export const cookieValue = (setCookieLine: string): string =>
  setCookieLine.slice(setCookieLine.indexOf('=') + 1).split(';')[0]!;

/** The hidden `_csrf` value of the sign-in page (or of the sign-out form on the home page). */
export function hiddenCsrf(html: string): string | undefined {
  return /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
}

/** Signs in through the real /login form; returns the session cookie pair `formward_session=...`. */
export async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const page = await request('GET', `${baseUrl}/login`);
  const csrfCookie = setCookie(page, 'formward_login_csrf');
  expect(csrfCookie).toBeDefined();
  const res = await request('POST', `${baseUrl}/login`, {
    cookie: `formward_login_csrf=${cookieValue(csrfCookie!)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password, _csrf: hiddenCsrf(page.text)! }).toString(),
  });
  expect(res.status, res.text).toBe(303);
  const session = setCookie(res, 'formward_session');
  expect(session).toBeDefined();
  return `formward_session=${cookieValue(session!)}`;
}
