import fs from 'node:fs';
import path from 'node:path';
import escapeHtml from 'escape-html';
import MarkdownIt from 'markdown-it';
import { ROLES, SCOPES, type Scope } from '../../domain/accounts/scopes';
import { INGEST_LIMITS } from '../../domain/submissions/limits';
import { RANGES } from '../../domain/submissions/range';
import { packageRoot } from '../../embedded/package-root';
import { sessionCookieName } from '../kit/session/cookies';
import { ERROR_CODES, type ErrorCode } from '../kit/errors/error-codes';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../kit/answers/pagination';
import type { PublicUrls } from '../../runtime/public-urls';
import { embedHtml } from '../forms/embed-html';
import { formExamples } from '../forms/form-examples';

/*
 * The guide sections of /docs: the Markdown of docs/api (see its README.md) with the values,
 * tables and examples that come from the code filled in, rendered with raw HTML off.
 */

export const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

const SECTIONS = ['introduction', 'authentication', 'envelopes', 'errors', 'ingest', 'webhooks'];

export type GuideSection = { id: string; title: string; html: string };
export type ApiGuide = { introduction: string; sections: GuideSection[] };

let sources: Map<string, string> | undefined;
function source(name: string): string {
  sources ??= new Map(
    SECTIONS.map((id) => [
      id,
      fs.readFileSync(path.join(packageRoot(), 'docs', 'api', `${id}.md`), 'utf8'),
    ]),
  );
  return sources.get(name)!;
}

const SCOPE_GRANTS: Record<Scope, string> = {
  can_create_forms: 'create and update forms, create and delete plugins, rotate signing secrets',
  can_read_submissions: 'read non-spam submissions and their uploaded files',
  can_read_spam_submissions: 'read spam submissions (the spam list, and spam submissions by id)',
};

const mdTable = (head: string[], rows: string[][]) =>
  [head, head.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');

function fence(code: string, language = ''): string {
  if (code.includes('```')) throw new Error('a generated example holds a code fence');
  return `\`\`\`${language}\n${code}\n\`\`\``;
}
const json = (value: unknown) => fence(JSON.stringify(value, null, 2), 'json');

const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MiB` : `${bytes / 1024} KiB`;

/** The Markdown values and blocks the guide's `{{name}}` placeholders stand for. */
function values(urls: PublicUrls): Record<string, string> {
  const { base, ingest } = urls;
  const token = 'YOUR_ENDPOINT_TOKEN';
  const formUrls = { submissionUrl: `${ingest}/f/${token}`, jsonUrl: `${ingest}/json/${token}` };
  const formHtml = embedHtml({ name: 'Contact', token, submissionUrl: formUrls.submissionUrl });
  const examples = formExamples(formUrls);
  const ranges = RANGES.map((r, i) => `\`${r}\`${i === 0 ? ' (default)' : ''}`);
  return {
    base_url: base,
    ingest_url: ingest,
    session_cookie: sessionCookieName(base),
    default_per_page: String(DEFAULT_PER_PAGE),
    max_per_page: String(MAX_PER_PAGE),
    ranges: `${ranges.slice(0, -1).join(', ')} or ${ranges.at(-1)}`,
    servers_table: mdTable(
      ['Server', 'URL', 'Serves'],
      [
        ['API', `\`${base}\``, 'the authenticated API under `/api`, the public endpoints, `/docs`'],
        ['Ingest', `\`${ingest}\``, 'form posts: `/f/…` and `/json/…`'],
      ],
    ),
    scopes_table: mdTable(
      ['Scope', 'Grants'],
      SCOPES.map((s) => [`\`${s}\``, SCOPE_GRANTS[s]]),
    ),
    roles_table: mdTable(
      ['Role', 'Scopes'],
      Object.entries(ROLES).map(([role, scopes]) => [
        role,
        scopes.map((s) => `\`${s}\``).join(', '),
      ]),
    ),
    single_example: json({
      ok: true,
      form: {
        id: '42',
        name: 'Contact',
        '…': '…',
        links: [{ rel: 'self', href: `${base}/api/forms/42` }],
      },
      payload: { '…': 'the same form' },
      links: [
        { rel: 'self', href: `${base}/api/forms/42` },
        { rel: 'update', href: `${base}/api/forms/42`, method: 'PATCH' },
      ],
    }),
    list_example: json({
      ok: true,
      submissions: ['…'],
      payload: ['…the same list'],
      meta: { page: 2, per_page: 50, total: 180, total_pages: 4 },
      links: [
        { rel: 'self', href: `${base}/api/submissions?range=7d&page=2&per_page=50` },
        { rel: 'first', href: '…' },
        { rel: 'last', href: '…' },
        { rel: 'next', href: '…' },
        { rel: 'prev', href: '…' },
      ],
    }),
    error_example: json({
      ok: false,
      error: 'validation_failed',
      message: 'the request failed validation',
      errors: ['name: must not be empty'],
      links: [{ rel: 'docs', href: `${base}/docs#errors` }],
    }),
    embed_html: fence(formHtml, 'html'),
    curl_example: fence(examples.curl, 'sh'),
    fetch_example: fence(examples.fetch, 'js'),
    limits_table: mdTable(
      ['Limit', 'Value'],
      [
        ['JSON or urlencoded body', size(INGEST_LIMITS.jsonBodyBytes)],
        ['multipart body', size(INGEST_LIMITS.multipartBodyBytes)],
        ['one file', size(INGEST_LIMITS.fileBytes)],
        ['files a submission', String(INGEST_LIMITS.files)],
        ['fields a submission', String(INGEST_LIMITS.fields)],
        ['field name', `${INGEST_LIMITS.fieldNameChars} characters`],
        ['one value', size(INGEST_LIMITS.fieldValueBytes)],
        ['all fields together, files aside', size(INGEST_LIMITS.fieldsBytes)],
      ],
    ),
  };
}

/** The errors table: its rows are the targets of the operations' error links. */
function errorsTable(): string {
  const rows: [ErrorCode, number, string][] = [];
  for (const [code, entry] of Object.entries(ERROR_CODES) as [
    ErrorCode,
    (typeof ERROR_CODES)[ErrorCode],
  ][]) {
    rows.push([code, entry.status, entry.when]);
    for (const [status, when] of Object.entries('also' in entry ? entry.also : {}))
      rows.push([code, Number(status), when]);
  }
  const seen = new Set<string>();
  const body = rows
    .sort(([, a], [, b]) => a - b)
    .map(([code, status, when]) => {
      const id = seen.has(code) ? '' : ` id="error-${code}"`;
      seen.add(code);
      return `<tr><td><code${id}>${code}</code></td><td>${status}</td><td>${markdown.renderInline(when)}</td></tr>`;
    })
    .join('');
  return `<table><thead><tr><th>error</th><th>Status</th><th>When</th></tr></thead><tbody>${body}</tbody></table>`;
}

const BLOCKS: Record<string, () => string> = { errors_table: errorsTable };

function fill(text: string, filled: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (match, name: string) => {
    if (!(name in filled)) throw new Error(`docs/api: unknown placeholder ${match}`);
    return filled[name]!;
  });
}

function render(id: string, filled: Record<string, string>): GuideSection {
  const text = fill(source(id), filled);
  const title = /^## (.+)$/m.exec(text)?.[1] ?? id;
  const html = markdown
    .render(text)
    .replace(/<p>\{\{block:(\w+)\}\}<\/p>/g, (_match, name: string) => BLOCKS[name]!());
  return { id, title: escapeHtml(title), html };
}

/** The guide for these URLs; `introduction` is Markdown, for the OpenAPI document. */
export function apiGuide(urls: PublicUrls): ApiGuide {
  const filled = values(urls);
  const introduction = fill(source('introduction'), filled).replace(/^## .+\n+/, '');
  return { introduction, sections: SECTIONS.map((id) => render(id, filled)) };
}
