import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { TestStack } from './test-stack';

/** Response bodies are read loosely; tests assert every field they rely on. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export type ApiResponse = { status: number; headers: Headers; body: Json; text: string };

export type RequestOptions = {
  /** Bearer API key. */
  key?: string;
  /** Raw Cookie header. */
  cookie?: string;
  headers?: Record<string, string>;
  /** Sent as application/json unless `headers` says otherwise. */
  json?: unknown;
  /** Sent as is (use `headers` for its content type). */
  body?: string;
};

/** A fresh account with an API client using its admin key. */
export async function newTenant(stack: TestStack) {
  const account = await stack.createAccount();
  return { ...account, api: new ApiClient(stack.url, { key: account.adminKey }) };
}

export type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** One HTTP request against the real server; never follows redirects. */
export async function request(
  baseUrl: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = {};
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  if (options.cookie !== undefined) headers.cookie = options.cookie;
  let body = options.body;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  Object.assign(headers, options.headers);
  const res = await fetch(new URL(path, baseUrl), { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: Json = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** A client bound to one server and one credential (API key or session cookie). */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly auth: { key?: string; cookie?: string } = {},
  ) {}

  send(method: string, path: string, options: RequestOptions = {}) {
    return request(this.baseUrl, method, path, { ...this.auth, ...options });
  }
  get(path: string, options?: RequestOptions) {
    return this.send('GET', path, options);
  }
  post(path: string, json?: unknown, options?: RequestOptions) {
    return this.send('POST', path, { json, ...options });
  }
  patch(path: string, json?: unknown, options?: RequestOptions) {
    return this.send('PATCH', path, { json, ...options });
  }
  delete(path: string, options?: RequestOptions) {
    return this.send('DELETE', path, options);
  }

  /** Creates a form and returns the Form resource. */
  async createForm(name: string, extra: Record<string, unknown> = {}): Promise<Json> {
    const res = await this.post('/api/forms', { name, ...extra });
    expect(res.status, res.text).toBe(201);
    return res.body.form;
  }

  /** The ids of a submissions list, in the order the server returned them. */
  async submissionIds(path: string): Promise<string[]> {
    const res = await this.get(path);
    expect(res.status, res.text).toBe(200);
    return res.body.submissions.map((s: { id: string }) => s.id);
  }
}

/** The error body of decisions §3, with the given status and code. */
export function expectError(res: ApiResponse, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.body.ok).toBe(false);
  expect(res.body.error).toBe(code);
  expect(typeof res.body.message).toBe('string');
  expect(res.body.message.length).toBeGreaterThan(0);
  expect(res.body.links).toEqual(
    expect.arrayContaining([{ rel: 'docs', href: expect.stringMatching(/^https?:\/\/.+\/docs/) }]),
  );
  if (res.body.errors !== undefined) {
    expect(Array.isArray(res.body.errors)).toBe(true);
    for (const line of res.body.errors) expect(typeof line).toBe('string');
  }
}

/** 422 `validation_failed` whose `errors` has a line about `field`. */
export function expectValidationError(res: ApiResponse, field: string): void {
  expectError(res, 422, 'validation_failed');
  expect(res.body.errors).toEqual(expect.arrayContaining([expect.stringMatching(`^${field}: `)]));
}

export type Link = { rel: string; href: string; method?: string };

export const rels = (links: Link[]): string[] => links.map((l) => l.rel);

export function hrefOf(links: Link[], rel: string): string | undefined {
  return links.find((l) => l.rel === rel)?.href;
}

/** Parses an RFC 8288 Link header into rel → href. */
export function parseLinkHeader(header: string | null): Record<string, string> {
  const result: Record<string, string> = {};
  for (const part of (header ?? '').split(/,\s*(?=<)/)) {
    const match = /^<([^>]+)>;\s*rel="([^"]+)"/.exec(part.trim());
    if (match) result[match[2]!] = match[1]!;
  }
  return result;
}

/** JSON ingest; returns the stored submission id. */
export async function submitJson(
  baseUrl: string,
  token: string,
  payload: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<string> {
  const res = await request(baseUrl, 'POST', `/json/${token}`, { json: payload, headers });
  expect(res.status, res.text).toBe(200);
  expect(res.body.ok).toBe(true);
  return String(res.body.id);
}

/** HTML-form ingest (urlencoded) asking for JSON back; returns the stored submission id. */
export async function submitForm(
  baseUrl: string,
  token: string,
  fields: Record<string, string>,
): Promise<string> {
  const res = await request(baseUrl, 'POST', `/f/${token}`, {
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
  });
  expect(res.status, res.text).toBe(200);
  return String(res.body.id);
}

/**
 * Moves a submission back in time (for range and stats tests). It is also marked as having
 * its workflow started, so the workflow sweeper never mistakes it for a missed old submission.
 */
export async function backdate(stack: TestStack, submissionId: string, interval: string) {
  await stack.sql(
    `update submissions
        set created_at = now() - ?::interval, updated_at = now() - ?::interval,
            workflow_started_at = coalesce(workflow_started_at, now())
      where id = ?`,
    [interval, interval, submissionId],
  );
}

/** Revokes a key the way the dashboard would (only the key's hash is stored). */
export async function revokeKey(stack: TestStack, key: string): Promise<void> {
  const hash = createHash('sha256').update(key).digest('hex');
  await stack.sql('update api_keys set revoked_at = now() where key_hash = ?', [hash]);
}

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
  const page = await request(baseUrl, 'GET', '/login');
  const csrfCookie = setCookie(page, 'formward_login_csrf');
  expect(csrfCookie).toBeDefined();
  const res = await request(baseUrl, 'POST', '/login', {
    cookie: `formward_login_csrf=${cookieValue(csrfCookie!)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password, _csrf: hiddenCsrf(page.text)! }).toString(),
  });
  expect(res.status, res.text).toBe(303);
  const session = setCookie(res, 'formward_session');
  expect(session).toBeDefined();
  return `formward_session=${cookieValue(session!)}`;
}
