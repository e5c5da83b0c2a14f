import { expect } from 'vitest';
import type { ErrorCode } from '../../src/http/kit/errors/error-codes';
import type {
  AnswerBody,
  CreatedPlugin,
  ErrorAnswer,
  FormSettings,
  FormView,
  JsonStatus,
  Operation,
} from './api-answers';

/** JSON that no route declares (the CLI's output), read loosely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export type ApiResponse = {
  /** What was asked: the method in capitals and the absolute URL. */
  method: string;
  url: string;
  status: number;
  headers: Headers;
  /**
   * The body parsed as JSON, or null when it is not JSON. Unknown on purpose: read an answer
   * through `expectAnswer` or `expectError`, which type it from the route declarations.
   */
  body: unknown;
  text: string;
  bytes: Buffer;
};

export type RequestOptions = {
  /** Bearer API key. */
  key?: string;
  /** Raw Cookie header. */
  cookie?: string;
  headers?: Record<string, string>;
  /** Sent as application/json unless `headers` says otherwise. */
  json?: unknown;
  /** Sent as is (use `headers` for its content type). */
  body?: string | Buffer;
};

export type Link = { rel: string; href: string; method?: string };

export type { AnswerBody, ErrorAnswer, FormSettings, FormView, Operation } from './api-answers';

/** A webhook as `POST /api/forms/{form_id}/plugins` answers it, with its signing secret. */
export type CreatedWebhook = CreatedPlugin & { signing_secret: string };

/** One HTTP request against the real server; never follows redirects. */
export async function request(
  method: string,
  url: string | URL,
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
  const res = await fetch(url, { method, headers, body, redirect: 'manual' });
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  return {
    method: method.toUpperCase(),
    url: String(url),
    status: res.status,
    headers: res.headers,
    body: parsed,
    text,
    bytes,
  };
}

/**
 * A client bound to one server and one credential (API key, session cookie, or none). Paths
 * are resolved against the server's URL, so absolute URLs from the API work as well.
 */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly auth: { key?: string; cookie?: string } = {},
  ) {}

  send(method: string, path: string, options: RequestOptions = {}) {
    return request(method, new URL(path, this.baseUrl), { ...this.auth, ...options });
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

  /** Creates a form (named `Contact` unless the settings name it); returns the Form resource. */
  async createForm(settings: FormSettings = {}): Promise<FormView> {
    const res = await this.post('/api/forms', { name: 'Contact', ...settings });
    return expectAnswer(res, 'POST /api/forms', 201).form;
  }

  /** Adds a webhook to a form; returns the plugin with its signing secret. */
  async addWebhook(formId: string, url: string): Promise<CreatedWebhook> {
    const res = await this.post(`/api/forms/${formId}/plugins`, {
      plugin_type: 'webhook',
      config: { url },
    });
    const { plugin } = expectAnswer(res, 'POST /api/forms/{form_id}/plugins', 201);
    expect(plugin.signing_secret).toMatch(/^whsec_/);
    return plugin as CreatedWebhook;
  }

  /** The ids of a submissions list (spam or not), in the order the server returned them. */
  async submissionIds(path: string): Promise<string[]> {
    const res = await this.get(path);
    const spam = new URL(path, this.baseUrl).pathname === '/api/submissions/spam';
    const operation = spam ? 'GET /api/submissions/spam' : 'GET /api/submissions';
    return expectAnswer(res, operation, 200).submissions.map((s) => s.id);
  }
}

/** The path of a URL matches an operation's declared path (`{name}` is one segment). */
function servesPath(url: string, declared: string): boolean {
  const pattern = declared.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
  return new RegExp(`^${pattern}$`).test(new URL(url).pathname);
}

/**
 * The answer of `operation` (`'GET /api/forms/{id}'`) with `status`: checks that the request
 * was that operation and the status (the body as message), and returns the body typed as
 * the schema the route declares for that status.
 */
export function expectAnswer<Op extends Operation, S extends JsonStatus<Op>>(
  res: ApiResponse,
  operation: Op,
  status: S,
): AnswerBody<Op, S> {
  const [method, path] = operation.split(' ') as [string, string];
  const asked = `${res.method} ${res.url}`;
  expect(res.method === method && servesPath(res.url, path), `${asked} is ${operation}`).toBe(true);
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return res.body as AnswerBody<Op, S>;
}

/** The error body of docs/api-conventions.md with the given status and code; returns the body. */
export function expectError(res: ApiResponse, status: number, code: ErrorCode): ErrorAnswer {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = res.body as ErrorAnswer;
  expect(body.ok).toBe(false);
  expect(body.error).toBe(code);
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  expect(body.links).toEqual(
    expect.arrayContaining([{ rel: 'docs', href: expect.stringMatching(/^https?:\/\/.+\/docs/) }]),
  );
  if (body.errors !== undefined) {
    expect(Array.isArray(body.errors)).toBe(true);
    for (const line of body.errors) expect(typeof line).toBe('string');
  }
  return body;
}

/** 422 `validation_failed` whose `errors` has a line about `field`. */
export function expectValidationError(res: ApiResponse, field: string): void {
  const { errors } = expectError(res, 422, 'validation_failed');
  expect(errors).toEqual(expect.arrayContaining([expect.stringMatching(`^${field}: `)]));
}

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
