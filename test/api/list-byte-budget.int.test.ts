import { describe, expect, it } from 'vitest';
import {
  expectAnswer,
  expectError,
  expectValidationError,
  hrefOf,
  parseLinkHeader,
  rels,
  type AnswerBody,
} from '../support/api-client';
import { useTestStack } from '../support/fixture';

const MAX_BYTES = 300 * 1024;

const t = useTestStack({ env: { LIST_MAX_BYTES: String(MAX_BYTES) } });

/**
 * Inserts submissions straight into PostgreSQL with payloads of `kib[i]` KiB each; pairs of
 * rows share a created_at, so the continuation must break ties by id.
 */
async function insertSized(formId: string, kib: number[], spam = false): Promise<void> {
  await t.stack.sql(
    `insert into submissions (form_id, account_id, payload_json, is_spam, created_at, updated_at)
     select ?, ?, jsonb_build_object('n', g, 'text', repeat('x', (?::int[])[g] * 1024)), ?,
            date_trunc('second', now()) - (g / 2) * interval '1 second', now()
       from generate_series(1, ?::int) g`,
    [formId, t.accountId, `{${kib.join(',')}}`, spam, kib.length],
  );
}

/** The form's ids in list order (newest first, ties by id), from the database. */
async function storedIds(formId: string, spam = false): Promise<string[]> {
  const rows = await t.stack.sql<{ id: string }>(
    'select id from submissions where form_id = ? and is_spam = ? order by created_at desc, id desc',
    [formId, spam],
  );
  return rows.map((row) => String(row.id));
}

type SubmissionPage = AnswerBody<'GET /api/submissions', 200>;
type ListOperation = 'GET /api/submissions' | 'GET /api/submissions/spam';

/** Follows `next` from `first` to the end; every answer checked against the byte budget. */
async function walk(
  first: string,
  operation: ListOperation = 'GET /api/submissions',
): Promise<{ ids: string[]; pages: SubmissionPage[] }> {
  const ids: string[] = [];
  const pages: SubmissionPage[] = [];
  let href: string | undefined = first;
  while (href) {
    const res = await t.api.get(href);
    const page = expectAnswer(res, operation, 200);
    expect(Buffer.byteLength(res.text)).toBeLessThanOrEqual(MAX_BYTES);
    expect(page.submissions.length).toBeGreaterThan(0);
    // The Link header carries the same links as the body.
    expect(parseLinkHeader(res.headers.get('link')).next).toBe(hrefOf(page.links, 'next'));
    ids.push(...page.submissions.map((s) => s.id));
    pages.push(page);
    href = hrefOf(page.links, 'next');
    expect(pages.length).toBeLessThan(50);
  }
  return { ids, pages };
}

describe('list answers bounded in bytes (LIST_MAX_BYTES)', () => {
  it('cuts a page short at the budget and continues exactly after its last item', async () => {
    const form = await t.api.createForm({ name: 'Large payloads' });
    const sizes = [90, 10, 60, 60, 1, 1, 80, 40, 40, 90, 2, 70, 30, 30, 50, 50, 3];
    await insertSized(form.id, sizes);
    const expected = await storedIds(form.id);
    expect(expected).toHaveLength(sizes.length);

    const { ids, pages } = await walk(`/api/submissions?form_id=${form.id}&range=all&per_page=5`);

    expect(ids).toEqual(expected);
    const cut = pages.filter((page) => page.meta.truncated === true);
    expect(cut.length).toBeGreaterThan(0);
    for (const page of cut) {
      expect(page.meta).toMatchObject({ max_bytes: MAX_BYTES, per_page: 5, total: 17 });
      expect(page.submissions.length).toBeLessThan(5);
    }
    // Past the first page the walk is by cursor, and its page numbers count on.
    expect(pages.map((page) => page.meta.page)).toEqual(pages.map((_, i) => i + 1));
    expect(hrefOf(pages[1]!.links, 'self')).toMatch(/[?&]cursor=/);
    expect(rels(pages.at(-1)!.links)).not.toContain('next');
  });

  it('always returns one item, even one larger than the budget', async () => {
    const form = await t.api.createForm({ name: 'One huge payload' });
    await t.stack.sql(
      `insert into submissions (form_id, account_id, payload_json, created_at, updated_at)
       select ?, ?, jsonb_build_object('a', repeat('a', 100 * 1024), 'b', repeat('b', 100 * 1024),
                                       'c', repeat('c', 100 * 1024)), now() - g * interval '1 minute', now()
         from generate_series(1, 2) g`,
      [form.id, t.accountId],
    );
    const res = await t.api.get(`/api/submissions?form_id=${form.id}&range=all`);
    const first = expectAnswer(res, 'GET /api/submissions', 200);
    expect(first.submissions).toHaveLength(1);
    expect(first.meta.truncated).toBe(true);
    const next = await t.api.get(hrefOf(first.links, 'next')!);
    const second = expectAnswer(next, 'GET /api/submissions', 200);
    expect(second.submissions).toHaveLength(1);
    expect(second.submissions[0]!.id).not.toBe(first.submissions[0]!.id);
    expect(rels(second.links)).not.toContain('next');
  });

  it('bounds the spam list the same way', async () => {
    const form = await t.api.createForm({ name: 'Large spam' });
    await insertSized(form.id, [90, 90, 90, 90, 90], true);
    const { ids, pages } = await walk(
      `/api/submissions/spam?form_id=${form.id}&range=all&per_page=50`,
      'GET /api/submissions/spam',
    );
    expect(ids).toEqual(await storedIds(form.id, true));
    expect(pages.length).toBeGreaterThan(1);
  });

  it('leaves small pages as they were: page-number links, no truncation', async () => {
    const form = await t.api.createForm({ name: 'Small payloads' });
    await insertSized(form.id, [1, 1, 1, 1, 1]);
    const res = await t.api.get(`/api/submissions?form_id=${form.id}&range=all&per_page=2`);
    const page = expectAnswer(res, 'GET /api/submissions', 200);
    expect(page.submissions).toHaveLength(2);
    expect(page.meta).toEqual({ page: 1, per_page: 2, total: 5, total_pages: 3 });
    expect(hrefOf(page.links, 'next')).toMatch(/[?&]page=2(&|$)/);
    expect(hrefOf(page.links, 'next')).not.toMatch(/cursor=/);
    const { ids } = await walk(`/api/submissions?form_id=${form.id}&range=all&per_page=2`);
    expect(ids).toEqual(await storedIds(form.id));
  });

  it('refuses a cursor it did not issue with 422 validation_failed', async () => {
    const form = await t.api.createForm({ name: 'Cursor checks' });
    await insertSized(form.id, [90, 90, 90]);
    const first = await t.api.get(`/api/submissions?form_id=${form.id}&range=all`);
    const { links } = expectAnswer(first, 'GET /api/submissions', 200);
    const next = new URL(hrefOf(links, 'next')!);
    const cursor = next.searchParams.get('cursor')!;
    expect(cursor).toBeTruthy();
    const tampered = [
      `${cursor}x!`,
      Buffer.from('1.abc.2').toString('base64url'),
      Buffer.from('0.1700000000000000.2').toString('base64url'),
      'not a cursor',
    ];
    for (const bad of tampered) {
      next.searchParams.set('cursor', bad);
      const res = await t.api.get(next.toString());
      expectValidationError(res, 'cursor');
      expect(expectError(res, 422, 'validation_failed').errors?.join(' ')).toMatch(/next/);
    }
  });

  it('declares the cursor parameter and the new meta fields in OpenAPI', async () => {
    const res = await t.http.get('/api/openapi.json');
    expect(res.status).toBe(200);
    // A document, not a declared JSON answer: the parts read here, as OpenAPI 3.1 has them.
    const document = res.body as {
      paths: Record<string, Record<string, { parameters: { name: string }[] }>>;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    const operation = document.paths['/api/submissions']!.get!;
    expect(operation.parameters.map((p) => p.name)).toContain('cursor');
    const meta = document.components.schemas.ListMeta!;
    expect(Object.keys(meta.properties)).toEqual(
      expect.arrayContaining(['truncated', 'max_bytes']),
    );
  });
});
