import { expect } from 'vitest';
import { request, type ApiResponse } from '../support/api-client';
import { cookieValue, setCookie } from '../support/sign-in';
import type { AppSession } from './dashboard-support';

/** Posts a signed-in form (urlencoded) with the session's CSRF token. */
export function appPost(
  baseUrl: string,
  session: AppSession,
  path: string,
  fields: Record<string, string> = {},
): Promise<ApiResponse> {
  return request('POST', `${baseUrl}${path}`, {
    cookie: session.cookie,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: session.csrf, ...fields }).toString(),
  });
}

/** The newest invitation link the dev mailbox holds for the address, once not `previous`. */
export async function invitationLink(
  baseUrl: string,
  email: string,
  previous?: string,
): Promise<string> {
  const row = new RegExp(`<td>${email}</td><td><a href="(/dev/mailbox/[^"]+)">You are invited`);
  for (let i = 0; i < 50; i++) {
    const list = await request('GET', `${baseUrl}/dev/mailbox`);
    const href = row.exec(list.text)?.[1];
    if (href) {
      const message = await request('GET', `${baseUrl}${href}`);
      const link = /<a href="(http:\/\/[^"]+\/invite\?token=[\w-]+)">/.exec(message.text)?.[1];
      expect(link).toBeDefined();
      if (link !== previous) return link!;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no invitation mail for ${email}`);
}

/** The session cookie a response sets. */
export function sessionCookie(res: ApiResponse): string {
  const line = setCookie(res, 'formward_session');
  expect(line, res.text).toBeDefined();
  return `formward_session=${cookieValue(line!)}`;
}

/** A signed-in session from its cookie: the CSRF token read off /app. */
export async function sessionOfCookie(baseUrl: string, cookie: string): Promise<AppSession> {
  const page = await request('GET', `${baseUrl}/app`, { cookie });
  const csrf = /name="csrf-token" content="([^"]+)"/.exec(page.text)?.[1];
  if (!csrf) throw new Error(`/app: no CSRF token (${page.status})`);
  return { cookie, csrf };
}
