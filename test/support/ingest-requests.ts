import { expect } from 'vitest';
import { expectAnswer, request, type ApiResponse, type FormView } from './api-client';

// Submissions as browsers and scripts send them to /f/{token} and /json/{token}.

/** The ingest operation a response answered, from its path. */
const ingestOperation = (res: ApiResponse) =>
  new URL(res.url).pathname.startsWith('/json/')
    ? ('POST /json/{endpoint_token}' as const)
    : ('POST /f/{endpoint_token}' as const);

/** The IngestResult of an accepted submission (either endpoint, answering JSON). */
export const ingestResultOf = (res: ApiResponse) => expectAnswer(res, ingestOperation(res), 200);

export const contactFields = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  message: 'Hello from the tests',
};

type Fields = Record<string, string | string[]> | [string, string][];

/** POSTs an urlencoded body, as an HTML form does. */
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
  return request('POST', url, {
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
}

/** POSTs a JSON body (a string is sent as is, so broken JSON can be tested). */
export function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  return request('POST', url, {
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
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
  return request('POST', url, { body, headers: { 'content-type': contentType, ...headers } });
}

/**
 * A thank-you URL as a post's redirect names it, without the `?receipt=` it carries
 * (docs/receipts.md); every other URL as it is.
 */
export const withoutReceipt = (url: string | string[] | null | undefined): string | null =>
  typeof url === 'string' ? url.replace(/\?receipt=[\w.-]+$/, '') : null;

/** Asserts a successful JSON ingest answer (IngestResult) and returns it. */
export function expectIngestResult(res: ApiResponse, baseUrl: string, form: FormView) {
  const body = ingestResultOf(res);
  expect(body.ok).toBe(true);
  expect(body.id).toMatch(/^\d+$/);
  expect(body.links).toEqual([
    expect.objectContaining({ rel: 'submission', href: `${baseUrl}/api/submissions/${body.id}` }),
    expect.objectContaining({ rel: 'form', href: `${baseUrl}/api/forms/${form.id}` }),
  ]);
  return body;
}

/** JSON ingest that must be accepted; returns the stored submission id. */
export async function submitJson(
  form: Pick<FormView, 'json_url'>,
  payload: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<string> {
  const result = ingestResultOf(await postJson(form.json_url, payload, headers));
  expect(result.ok).toBe(true);
  return result.id;
}

/** HTML-form ingest asking for JSON back, that must be accepted; returns the submission id. */
export async function submitForm(
  form: Pick<FormView, 'submission_url'>,
  fields: Record<string, string>,
): Promise<string> {
  const res = await postForm(form.submission_url, fields, { accept: 'application/json' });
  return ingestResultOf(res).id;
}
