import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  expectAnswer,
  hrefOf,
  parseLinkHeader,
  rels,
  type AnswerBody,
} from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { submitJson } from '../support/ingest-requests';

// The delivery logs hold to LIST_MAX_BYTES like every list: a stored answer is up to 4 KB, and
// several times that once JSON escapes it, so a page is cut short (`meta.truncated`,
// `meta.max_bytes`) and its `next` link continues by cursor right after its last attempt.

const MAX_BYTES = 80 * 1024;

const t = useTestStack({ env: { LIST_MAX_BYTES: String(MAX_BYTES) } });

/** 4,096 characters that JSON escapes: control characters (6 bytes each), quotes, `<`, `\`. */
const ESCAPING_BODY = Array.from(
  { length: 4096 },
  (_, i) => ['\u0001', '"', '\u001f', '<', '\\', '\u0007'][i % 6],
).join('');

type Operation =
  'GET /api/submissions/{id}/deliveries' | 'GET /api/forms/{form_id}/plugins/{id}/deliveries';
type LogPage = AnswerBody<Operation, 200>;

/**
 * Inserts `count` attempts of a submission (to `pluginId`, or the autoresponse when null),
 * each answered with ESCAPING_BODY; pairs share a started_at, so going on must break ties by id.
 */
async function insertAttempts(submissionId: string, pluginId: string | null, count: number) {
  for (let n = 0; n < count; n++) {
    await t.stack.sql(
      `insert into delivery_attempts (delivery_id, submission_id, plugin_id, plugin_type, attempt,
          status, http_status, error, response_body, is_replay, is_test, workflow_id,
          workflow_run_id, started_at, finished_at)
       values (?, ?, ?, ?, 1, 'failed', 500, 'receiver answered 500', ?, false, false, 'w', 'r',
               date_trunc('second', now()) - ? * interval '1 second', now())`,
      [
        randomUUID(),
        submissionId,
        pluginId,
        pluginId === null ? 'autoresponse' : null,
        ESCAPING_BODY,
        Math.floor(n / 2),
      ],
    );
  }
}

/** The attempt ids of the log in its order (newest start first, ties by id), from the database. */
async function storedIds(column: 'submission_id' | 'plugin_id', id: string): Promise<string[]> {
  const rows = await t.stack.sql<{ id: string }>(
    `select id from delivery_attempts where ${column} = ? order by started_at desc, id desc`,
    [id],
  );
  return rows.map((row) => String(row.id));
}

/** Follows `next` from `first` to the end; every answer checked against the byte budget. */
async function walk(first: string, operation: Operation) {
  const ids: string[] = [];
  const pages: LogPage[] = [];
  let href: string | undefined = first;
  while (href) {
    const res = await t.api.get(href);
    const page = expectAnswer(res, operation, 200);
    expect(Buffer.byteLength(res.text)).toBeLessThanOrEqual(MAX_BYTES);
    expect(page.deliveries.length).toBeGreaterThan(0);
    expect(parseLinkHeader(res.headers.get('link')).next).toBe(hrefOf(page.links, 'next'));
    for (const attempt of page.deliveries) expect(attempt.response_body).toBe(ESCAPING_BODY);
    ids.push(...page.deliveries.map((d) => d.id));
    pages.push(page);
    href = hrefOf(page.links, 'next');
    expect(pages.length).toBeLessThan(30);
  }
  return { ids, pages };
}

describe('delivery logs within LIST_MAX_BYTES', () => {
  it('cuts both logs short and continues right after the last attempt, each once', async () => {
    const form = await t.api.createForm({ name: 'Escaping answers' });
    const added = await t.api.post(`/api/forms/${form.id}/plugins`, {
      plugin_type: 'webhook',
      config: { url: 'https://93.184.216.34/hook' },
    });
    const { plugin } = expectAnswer(added, 'POST /api/forms/{form_id}/plugins', 201);
    const first = await submitJson(form, { message: 'one' });
    const second = await submitJson(form, { message: 'two' });
    await insertAttempts(first, plugin.id, 7);
    await insertAttempts(first, null, 3);
    await insertAttempts(second, plugin.id, 3);

    const logs = [
      {
        operation: 'GET /api/submissions/{id}/deliveries' as const,
        path: `/api/submissions/${first}/deliveries`,
        expected: await storedIds('submission_id', first),
      },
      {
        operation: 'GET /api/forms/{form_id}/plugins/{id}/deliveries' as const,
        path: `/api/forms/${form.id}/plugins/${plugin.id}/deliveries`,
        expected: await storedIds('plugin_id', plugin.id),
      },
    ];
    for (const { operation, path, expected } of logs) {
      expect(expected).toHaveLength(10);

      // 500 a page would pass the budget: the page is cut, never bigger.
      const unbounded = await t.api.get(`${path}?per_page=500`);
      const cutPage = expectAnswer(unbounded, operation, 200);
      expect(Buffer.byteLength(unbounded.text)).toBeLessThanOrEqual(MAX_BYTES);
      expect(cutPage.meta).toMatchObject({ truncated: true, max_bytes: MAX_BYTES, total: 10 });
      expect(cutPage.deliveries.length).toBeLessThan(10);
      expect(hrefOf(cutPage.links, 'next')).toMatch(/[?&]cursor=/);

      const { ids, pages } = await walk(`${path}?per_page=4`, operation);
      expect(ids).toEqual(expected);
      expect(pages.some((page) => page.meta.truncated === true)).toBe(true);
      expect(pages.map((page) => page.meta.page)).toEqual(pages.map((_, i) => i + 1));
      expect(hrefOf(pages[1]!.links, 'self')).toMatch(/[?&]cursor=/);
      expect(rels(pages.at(-1)!.links)).not.toContain('next');

      // Paging by number still works where the budget does not cut.
      const second = expectAnswer(await t.api.get(`${path}?page=3&per_page=1`), operation, 200);
      expect(second.deliveries.map((d) => d.id)).toEqual([expected[2]]);
      expect(second.meta.truncated).toBeUndefined();
      expect(hrefOf(second.links, 'next')).toMatch(/[?&]page=4(&|$)/);
    }
  });
});
