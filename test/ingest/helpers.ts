import { expect } from 'vitest';
import type { Scope } from '../../src/domain/accounts/scopes';
import { startTestStack, type TestStack, type TestStackOptions } from '../support/test-stack';

/** The Form fields the ingest suites use. */
export type FormView = {
  id: string;
  name: string;
  endpoint_token: string;
  submission_url: string;
  json_url: string;
  embed_html: string;
  autocomplete_script_url: string;
  success_redirect_url: string | null;
  allowed_domains: string[];
  is_active: boolean;
};

export type SubmissionView = {
  id: string;
  form_id: string;
  form_endpoint_token: string;
  payload_json: Record<string, unknown>;
  special_normalized: Record<string, string> | null;
  source_ip: string | null;
  user_agent: string | null;
  referrer: string | null;
  is_spam: boolean;
  spam_reason: string | null;
};

export type Link = { rel: string; href: string; method?: string };

export type FormSettings = Partial<
  Pick<FormView, 'success_redirect_url' | 'allowed_domains' | 'is_active' | 'name'>
>;

/** A stack with one account and helpers to create forms and read back what ingest stored. */
export async function startIngestHarness(options: TestStackOptions = {}) {
  const stack = await startTestStack(options);
  const account = await stack.createAccount();
  const auth = (key = account.adminKey) => ({ Authorization: `Bearer ${key}` });

  /** Authenticated API call with the account's admin key; returns status and parsed body. */
  const api = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${stack.url}${path}`, {
      ...init,
      headers: { ...auth(), 'Content-Type': 'application/json', ...init.headers },
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  return {
    stack,
    account,
    auth,
    api,
    /** Creates a form through the API; settings other than the name go through PATCH (the spec's update). */
    async createForm(settings: FormSettings = {}): Promise<FormView> {
      const created = await api('/api/forms', {
        method: 'POST',
        body: JSON.stringify({ name: settings.name ?? 'Contact' }),
      });
      expect(created.status).toBe(201);
      const form = created.body.form as FormView;
      const { name: _name, ...rest } = settings;
      if (Object.keys(rest).length === 0) return form;
      const updated = await api(`/api/forms/${form.id}`, {
        method: 'PATCH',
        body: JSON.stringify(rest),
      });
      expect(updated.status).toBe(200);
      return updated.body.form as FormView;
    },
    /** The full submission as the API returns it. */
    async readSubmission(id: string): Promise<SubmissionView> {
      const read = await api(`/api/submissions/${id}`);
      expect(read.status).toBe(200);
      return read.body.submission as SubmissionView;
    },
    /** Rows stored for a form, spam included. */
    async countSubmissions(formId: string): Promise<number> {
      const [row] = await stack.sql<{ n: number }>(
        'select count(*)::int as n from submissions where form_id = ?',
        [formId],
      );
      return row!.n;
    },
    /** The single stored submission of a form (fails when there is not exactly one). */
    async onlySubmission(formId: string) {
      const rows = await stack.sql<{
        id: string;
        payload_json: Record<string, unknown>;
        is_spam: boolean;
        spam_reason: string | null;
      }>('select id, payload_json, is_spam, spam_reason from submissions where form_id = ?', [
        formId,
      ]);
      expect(rows).toHaveLength(1);
      return { ...rows[0]!, id: String(rows[0]!.id) };
    },
    createKey: (scopes: Scope[]) => stack.createKey(account.accountId, scopes),
    stop: () => stack.stop(),
  };
}

export type IngestHarness = Awaited<ReturnType<typeof startIngestHarness>>;
export type { TestStack };

type Fields = Record<string, string | string[]> | [string, string][];

/** POSTs an urlencoded body without following redirects. */
export function postForm(
  url: string,
  fields: Fields | string,
  headers: Record<string, string> = {},
) {
  const body =
    typeof fields === 'string'
      ? fields
      : new URLSearchParams(
          Array.isArray(fields)
            ? fields
            : Object.entries(fields).flatMap(([name, value]) =>
                (Array.isArray(value) ? value : [value]).map((v): [string, string] => [name, v]),
              ),
        ).toString();
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });
}

/** POSTs a JSON body (a string is sent as is, so broken JSON can be tested). */
export function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export type Part =
  | { name: string; value: string }
  | { name: string; filename: string; contentType?: string; content: Buffer | string };

/** A multipart/form-data body built byte by byte, the way a browser sends it. */
export function multipart(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----formwardtest${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      'filename' in part
        ? `form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}`
        : `form-data; name="${part.name}"`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`));
    chunks.push(Buffer.from('value' in part ? part.value : part.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export function postMultipart(url: string, parts: Part[], headers: Record<string, string> = {}) {
  const { body, contentType } = multipart(parts);
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': contentType, ...headers },
    body,
  });
}

/** Asserts a JSON error answer of decisions §3 and returns its body. */
export async function expectError(res: Response, status: number, code: string) {
  const text = await res.text();
  expect({ status: res.status, text }).toMatchObject({ status });
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = JSON.parse(text) as {
    ok: boolean;
    error: string;
    message: string;
    errors?: string[];
  };
  expect(body).toMatchObject({ ok: false, error: code });
  expect(body.message).toEqual(expect.any(String));
  return body;
}

/** Asserts a successful JSON ingest answer (IngestResult) and returns it. */
export async function expectIngestResult(res: Response, baseUrl: string, form: FormView) {
  expect(res.status).toBe(200);
  const body = (await res.json()) as { ok: boolean; id: string; links: Link[] };
  expect(body.ok).toBe(true);
  expect(body.id).toMatch(/^\d+$/);
  expect(body.links).toEqual([
    expect.objectContaining({ rel: 'submission', href: `${baseUrl}/api/submissions/${body.id}` }),
    expect.objectContaining({ rel: 'form', href: `${baseUrl}/api/forms/${form.id}` }),
  ]);
  return body;
}

export const contactFields = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  message: 'Hello from the tests',
};
