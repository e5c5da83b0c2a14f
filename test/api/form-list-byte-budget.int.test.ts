import { describe, expect, it } from 'vitest';
import {
  expectAnswer,
  hrefOf,
  parseLinkHeader,
  rels,
  type AnswerBody,
} from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { fieldsOfSize } from '../support/sized-fields';

// `GET /api/forms` holds to LIST_MAX_BYTES like the submission lists: a page is cut short
// (`meta.truncated`, `meta.max_bytes`) and its `next` link continues by cursor right after its
// last form; never a bigger answer.

const MAX_BYTES = 96 * 1024;

const t = useTestStack({ env: { LIST_MAX_BYTES: String(MAX_BYTES) } });

type FormPage = AnswerBody<'GET /api/forms', 200>;

async function walk(first: string): Promise<{ ids: string[]; pages: FormPage[] }> {
  const ids: string[] = [];
  const pages: FormPage[] = [];
  let href: string | undefined = first;
  while (href) {
    const res = await t.api.get(href);
    const page = expectAnswer(res, 'GET /api/forms', 200);
    expect(Buffer.byteLength(res.text)).toBeLessThanOrEqual(MAX_BYTES);
    expect(page.forms.length).toBeGreaterThan(0);
    expect(parseLinkHeader(res.headers.get('link')).next).toBe(hrefOf(page.links, 'next'));
    ids.push(...page.forms.map((f) => f.id));
    pages.push(page);
    href = hrefOf(page.links, 'next');
    expect(pages.length).toBeLessThan(30);
  }
  return { ids, pages };
}

describe('GET /api/forms within LIST_MAX_BYTES', () => {
  it('cuts pages of big forms short and continues right after the last one', async () => {
    const created: string[] = [];
    for (let i = 0; i < 9; i++)
      created.push((await t.api.createForm({ name: `Big ${i}`, fields: fieldsOfSize(9000) })).id);
    const stored = await t.stack.sql<{ id: string }>(
      'select id from forms where account_id = ? order by created_at desc, id desc',
      [t.accountId],
    );
    const expected = stored.map((row) => String(row.id));
    expect([...expected].sort()).toEqual([...created].sort());

    const unbounded = await t.api.get('/api/forms?per_page=500');
    const firstPage = expectAnswer(unbounded, 'GET /api/forms', 200);
    expect(firstPage.meta).toMatchObject({ truncated: true, max_bytes: MAX_BYTES, total: 9 });
    expect(firstPage.forms.length).toBeLessThan(9);
    expect(Buffer.byteLength(unbounded.text)).toBeLessThanOrEqual(MAX_BYTES);

    const { ids, pages } = await walk('/api/forms?per_page=4');
    expect(ids).toEqual(expected);
    expect(pages.some((page) => page.meta.truncated === true)).toBe(true);
    expect(pages.map((page) => page.meta.page)).toEqual(pages.map((_, i) => i + 1));
    expect(hrefOf(pages[1]!.links, 'self')).toMatch(/[?&]cursor=/);
    expect(rels(pages.at(-1)!.links)).not.toContain('next');
  });
});
