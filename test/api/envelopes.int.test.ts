import { beforeAll, describe, expect, it } from 'vitest';
import {
  expectAnswer,
  hrefOf,
  parseLinkHeader,
  rels,
  type AnswerBody,
  type Link,
} from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { submitJson } from '../support/ingest-requests';

const t = useTestStack({ form: { name: 'Envelope form' } });
let formId: string;
let submissionId: string;
let pluginId: string;

beforeAll(async () => {
  formId = t.form.id;
  submissionId = await submitJson(t.form, { message: 'hi' });
  pluginId = (await t.api.addWebhook(formId, 'https://93.184.216.34/hook')).id;
});

const resources = () =>
  [
    { path: `/api/forms/${formId}`, operation: 'GET /api/forms/{id}', key: 'form', id: formId },
    {
      path: `/api/submissions/${submissionId}`,
      operation: 'GET /api/submissions/{id}',
      key: 'submission',
      id: submissionId,
    },
    {
      path: `/api/forms/${formId}/plugins/${pluginId}`,
      operation: 'GET /api/forms/{form_id}/plugins/{id}',
      key: 'plugin',
      id: pluginId,
    },
  ] as const;

const lists = () =>
  [
    { path: '/api/forms', operation: 'GET /api/forms', key: 'forms', id: formId },
    {
      path: '/api/submissions',
      operation: 'GET /api/submissions',
      key: 'submissions',
      id: submissionId,
    },
    {
      path: `/api/forms/${formId}/plugins`,
      operation: 'GET /api/forms/{form_id}/plugins',
      key: 'plugins',
      id: pluginId,
    },
  ] as const;

type EnvelopeOperation =
  | ReturnType<typeof resources>[number]['operation']
  | ReturnType<typeof lists>[number]['operation']
  | 'GET /api/form_stats/{form_id}';
type Item = { id: string; links: Link[] };
/** What every envelope shares; `<key>` is read by name, as the specification describes it. */
type Envelope = {
  ok: true;
  payload: unknown;
  links: Link[];
  meta?: AnswerBody<'GET /api/forms', 200>['meta'];
};

/** Both variants of the specification at once: `{ok, <key>: X, payload: X, links}`. */
async function getEnvelope(path: string, operation: EnvelopeOperation, key: string) {
  const res = await t.api.get(path);
  const body: Envelope = expectAnswer(res, operation, 200);
  const keyed = (body as unknown as Record<string, unknown>)[key];
  expect(body.ok).toBe(true);
  expect(keyed).toBeDefined();
  expect(body.payload).toEqual(keyed);
  expect(Array.isArray(body.links)).toBe(true);
  expect(rels(body.links)).toContain('self');
  return { res, body, item: keyed as Item, items: keyed as Item[] };
}

describe('single resources in the envelope', () => {
  it.each(['form', 'submission', 'plugin'])(
    '%s: both envelope variants and self links',
    async (key) => {
      const { path, operation, id } = resources().find((r) => r.key === key)!;
      const { body, item } = await getEnvelope(path, operation, key);
      expect(item.id).toBe(id);
      expect(hrefOf(item.links, 'self')).toBe(`${t.stack.url}${path}`);
      expect(hrefOf(body.links, 'self')).toBe(`${t.stack.url}${path}`);
    },
  );

  it('form stats come in the same envelope under `stats`', async () => {
    const operation = 'GET /api/form_stats/{form_id}';
    const { body } = await getEnvelope(`/api/form_stats/${formId}`, operation, 'stats');
    const { stats, links } = body as AnswerBody<typeof operation, 200>;
    expect(stats.total_submissions).toBe(1);
    expect(hrefOf(links, 'form')).toBe(`${t.stack.url}/api/forms/${formId}`);
  });

  it('action links carry their method', async () => {
    const res = await t.api.get(`/api/forms/${formId}`);
    const { links } = expectAnswer(res, 'GET /api/forms/{id}', 200).form;
    expect(links).toContainEqual({
      rel: 'update',
      href: `${t.stack.url}/api/forms/${formId}`,
      method: 'PATCH',
    });
    expect(links.find((l) => l.rel === 'self')).not.toHaveProperty('method');
  });
});

describe('lists in the envelope', () => {
  it.each(['forms', 'submissions', 'plugins'])(
    '%s: both variants, meta, and item links',
    async (key) => {
      const { path, operation, id } = lists().find((l) => l.key === key)!;
      const { body, items } = await getEnvelope(path, operation, key);
      expect(items.map((item) => item.id)).toEqual([id]);
      expect(body.meta).toMatchObject({ page: 1, total: 1, total_pages: 1 });
      expect(body.meta!.per_page).toBeGreaterThanOrEqual(1);
      for (const item of items) expect(rels(item.links)).toContain('self');
    },
  );

  it.each(['forms', 'submissions', 'plugins'])(
    '%s: first/last links and the same links in an RFC 8288 Link header',
    async (key) => {
      const { path, operation } = lists().find((l) => l.key === key)!;
      const { res, body } = await getEnvelope(path, operation, key);
      expect(rels(body.links)).toEqual(expect.arrayContaining(['self', 'first', 'last']));
      expect(rels(body.links)).not.toContain('next');
      expect(rels(body.links)).not.toContain('prev');
      const header = parseLinkHeader(res.headers.get('link'));
      for (const rel of ['self', 'first', 'last'])
        expect(header[rel]).toBe(hrefOf(body.links, rel));
    },
  );
});

describe('creation', () => {
  it('201 answers use the same envelope', async () => {
    const res = await t.api.post('/api/forms', { name: 'Second' });
    const body = expectAnswer(res, 'POST /api/forms', 201);
    expect(body.ok).toBe(true);
    expect(body.payload).toEqual(body.form);
    expect(res.headers.get('location')).toBe(hrefOf(body.form.links, 'self'));
  });
});
