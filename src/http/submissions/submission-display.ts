import { z } from 'zod';
import { RANGES } from '../../domain/submissions/range';
import { cursorQueryParameter, type ListCursor } from '../kit/answers/list-cursor';
import { paginationQuery, toPage, type Page } from '../kit/answers/pagination';
import { text } from '../kit/answers/text';

// What the submission pages show of a submission, as plain data: the templates escape it
// all (submission values are hostile, docs/dashboard.md).

/** The list pages' query: the API's filters, plus the spam tab; the dashboard looks back 30 days. */
const listQuery = paginationQuery.extend({
  q: text().trim().max(200).optional(),
  range: z.enum(RANGES).default('30d'),
  spam: z.enum(['0', '1']).default('0'),
  cursor: cursorQueryParameter,
});

export type ListFilters = {
  q: string;
  range: (typeof RANGES)[number];
  spam: boolean;
  page: Page;
  cursor?: ListCursor;
};

export function parseListFilters(query: unknown): ListFilters | null {
  const parsed = listQuery.safeParse(query);
  if (!parsed.success) return null;
  const { q, range, spam, cursor } = parsed.data;
  return { q: q ?? '', range, spam: spam === '1', page: toPage(parsed.data), cursor };
}

/** The query string of the filters (no page position), with `extra` set on top. */
export function filterQuery(filters: ListFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (filters.q) params.set('q', filters.q);
  params.set('range', filters.range);
  if (filters.spam) params.set('spam', '1');
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  return params.toString();
}

/** One submitted field as shown: text, a list of texts, uploaded files, or indented JSON. */
export type FieldDisplay = {
  name: string;
  text?: string;
  items?: string[];
  files?: { filename: string; href: string; contentType: string; size: number }[];
  json?: string;
};

type StoredFile = { filename: string; content_type: string; size: number; url: string };

/** The file's download path, when the value is a file ingest stored for this submission. */
function fileHref(value: unknown, submissionId: string): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const file = value as Partial<StoredFile>;
  if (typeof file.filename !== 'string' || typeof file.url !== 'string') return null;
  // Only our own download link becomes a link (a JSON payload can carry any `url`).
  const match = new RegExp(`/api/submissions/${submissionId}/files/(\\d{1,18})$`).exec(file.url);
  return match ? `/api/submissions/${submissionId}/files/${match[1]}` : null;
}

function asFile(value: unknown, submissionId: string) {
  const href = fileHref(value, submissionId);
  if (!href) return null;
  const file = value as StoredFile;
  return {
    filename: file.filename,
    href,
    contentType: String(file.content_type ?? ''),
    size: Number(file.size ?? 0),
  };
}

const isPrimitive = (value: unknown) =>
  value === null || ['string', 'number', 'boolean'].includes(typeof value);

export function displayField(name: string, value: unknown, submissionId: string): FieldDisplay {
  const values = Array.isArray(value) ? value : [value];
  const files = values.map((v) => asFile(v, submissionId));
  if (values.length > 0 && files.every((file) => file !== null)) return { name, files };
  if (!Array.isArray(value) && isPrimitive(value)) return { name, text: String(value ?? '') };
  if (Array.isArray(value) && value.every(isPrimitive))
    return { name, items: value.map((v) => String(v ?? '')) };
  return { name, json: JSON.stringify(value, null, 2) };
}

export function displayFields(
  payload: Record<string, unknown>,
  submissionId: string,
): FieldDisplay[] {
  return Object.entries(payload).map(([name, value]) => displayField(name, value, submissionId));
}

const SUMMARY_CHARACTERS = 160;

/** A one-line summary of a payload for a list row: `name: value` pairs, cut short. */
export function summarize(payload: Record<string, unknown>): string {
  const line = Object.entries(payload)
    .map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' · ');
  return line.length > SUMMARY_CHARACTERS ? `${line.slice(0, SUMMARY_CHARACTERS - 1)}…` : line;
}
