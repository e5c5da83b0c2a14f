import { beforeAll, describe, expect, it } from 'vitest';
import { hrefOf, parseLinkHeader, rels, type Link } from '../support/api-client';
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

const resources = () => [
  { path: `/api/forms/${formId}`, key: 'form', id: formId },
  { path: `/api/submissions/${submissionId}`, key: 'submission', id: submissionId },
  { path: `/api/forms/${formId}/plugins/${pluginId}`, key: 'plugin', id: pluginId },
];

const lists = () => [
  { path: '/api/forms', key: 'forms', id: formId },
  { path: '/api/submissions', key: 'submissions', id: submissionId },
  { path: `/api/forms/${formId}/plugins`, key: 'plugins', id: pluginId },
];

/** Both variants of the specification at once: `{ok, <key>: X, payload: X, links}`. */
async function getEnvelope(path: string, key: string) {
  const res = await t.api.get(path);
  expect(res.status, res.text).toBe(200);
  expect(res.body.ok).toBe(true);
  expect(res.body[key]).toBeDefined();
  expect(res.body.payload).toEqual(res.body[key]);
  expect(Array.isArray(res.body.links)).toBe(true);
  expect(rels(res.body.links)).toContain('self');
  return res;
}

describe('single resources in the envelope', () => {
  it.each(['form', 'submission', 'plugin'])(
    '%s: both envelope variants and self links',
    async (key) => {
      const { path, id } = resources().find((r) => r.key === key)!;
      const res = await getEnvelope(path, key);
      expect(res.body[key].id).toBe(id);
      expect(hrefOf(res.body[key].links, 'self')).toBe(`${t.stack.url}${path}`);
      expect(hrefOf(res.body.links, 'self')).toBe(`${t.stack.url}${path}`);
    },
  );

  it('form stats come in the same envelope under `stats`', async () => {
    const res = await getEnvelope(`/api/form_stats/${formId}`, 'stats');
    expect(res.body.stats.total_submissions).toBe(1);
    expect(hrefOf(res.body.links, 'form')).toBe(`${t.stack.url}/api/forms/${formId}`);
  });

  it('action links carry their method', async () => {
    const res = await t.api.get(`/api/forms/${formId}`);
    const links: Link[] = res.body.form.links;
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
      const { path, id } = lists().find((l) => l.key === key)!;
      const res = await getEnvelope(path, key);
      expect(res.body[key].map((item: { id: string }) => item.id)).toEqual([id]);
      expect(res.body.meta).toMatchObject({ page: 1, total: 1, total_pages: 1 });
      expect(res.body.meta.per_page).toBeGreaterThanOrEqual(1);
      for (const item of res.body[key]) expect(rels(item.links)).toContain('self');
    },
  );

  it.each(['forms', 'submissions', 'plugins'])(
    '%s: first/last links and the same links in an RFC 8288 Link header',
    async (key) => {
      const { path } = lists().find((l) => l.key === key)!;
      const res = await getEnvelope(path, key);
      expect(rels(res.body.links)).toEqual(expect.arrayContaining(['self', 'first', 'last']));
      expect(rels(res.body.links)).not.toContain('next');
      expect(rels(res.body.links)).not.toContain('prev');
      const header = parseLinkHeader(res.headers.get('link'));
      for (const rel of ['self', 'first', 'last'])
        expect(header[rel]).toBe(hrefOf(res.body.links, rel));
    },
  );
});

describe('creation', () => {
  it('201 answers use the same envelope', async () => {
    const res = await t.api.post('/api/forms', { name: 'Second' });
    expect(res.status).toBe(201);
    expect(res.body.ok).toBe(true);
    expect(res.body.payload).toEqual(res.body.form);
    expect(res.headers.get('location')).toBe(hrefOf(res.body.form.links, 'self'));
  });
});
