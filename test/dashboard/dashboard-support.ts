import type { Challenge } from 'altcha-lib' with { 'resolution-mode': 'import' };
import { expect } from 'vitest';
import { request, type ApiResponse } from '../support/api-client';
import { cookieValue, hiddenCsrf, setCookie, signIn } from '../support/sign-in';
import { solveAltcha } from '../support/altcha-solution';

/** A signed-out browser's state: the CSRF cookie of the signed-out forms and its token. */
export type GuestForm = { cookie: string; csrf: string };

/** Opens a signed-out page and keeps its CSRF cookie and hidden token. */
export async function openGuestForm(baseUrl: string, path: string): Promise<GuestForm> {
  const page = await request('GET', `${baseUrl}${path}`);
  const line = setCookie(page, 'formward_login_csrf');
  if (!line || !hiddenCsrf(page.text)) throw new Error(`${path}: no CSRF cookie or field`);
  return { cookie: `formward_login_csrf=${cookieValue(line)}`, csrf: hiddenCsrf(page.text)! };
}

/** Posts a form (urlencoded) with the guest cookie and its `_csrf`. */
export function postForm(
  baseUrl: string,
  path: string,
  guest: GuestForm,
  fields: Record<string, string>,
): Promise<ApiResponse> {
  return request('POST', `${baseUrl}${path}`, {
    cookie: guest.cookie,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: guest.csrf, ...fields }).toString(),
  });
}

/** Fetches a challenge from the sign-up page's endpoint and solves it as the widget would. */
export async function solvedAltcha(baseUrl: string): Promise<string> {
  const challenge = (await (await fetch(`${baseUrl}/signup/challenge`)).json()) as Challenge;
  return solveAltcha(challenge);
}

/** A signed-in browser's state: its session cookie and the CSRF token of its pages. */
export type AppSession = { cookie: string; csrf: string };

/** Signs in through /login and reads the session's CSRF token from the overview page. */
export async function openAppSession(
  baseUrl: string,
  email: string,
  password: string,
): Promise<AppSession> {
  const cookie = await signIn(baseUrl, email, password);
  const page = await request('GET', `${baseUrl}/app`, { cookie });
  const csrf = /name="csrf-token" content="([^"]+)"/.exec(page.text)?.[1];
  if (!csrf) throw new Error('/app: no CSRF token');
  return { cookie, csrf };
}

/**
 * Follows the 303 of a post that reveals a secret once, as a browser does: the sealed,
 * HttpOnly cookie scoped to the page, then the GET that shows it and clears the cookie.
 * Returns the page and the cookie pair (to replay it from elsewhere).
 */
export async function followReveal(
  baseUrl: string,
  cookie: string,
  posted: ApiResponse,
): Promise<{ page: ApiResponse; reveal: string }> {
  expect(posted.status, posted.text).toBe(303);
  const location = posted.headers.get('location')!;
  const line = setCookie(posted, 'formward_reveal');
  expect(line).toMatch(new RegExp(`; Path=${location}; `));
  expect(line).toContain('HttpOnly');
  const reveal = `formward_reveal=${cookieValue(line!)}`;
  expect(reveal).not.toMatch(/whsec_|frk_/);
  const page = await request('GET', `${baseUrl}${location}`, { cookie: `${cookie}; ${reveal}` });
  expect(page.status).toBe(200);
  expect(page.headers.get('cache-control')).toBe('no-store');
  expect(setCookie(page, 'formward_reveal')).toMatch(/Expires=Thu, 01 Jan 1970/);
  return { page, reveal };
}
