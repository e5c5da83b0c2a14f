import { beforeAll, describe, expect, it } from 'vitest';
import {
  expectAnswer,
  expectError,
  expectValidationError,
  hrefOf,
  parseLinkHeader,
  rels,
  type ApiResponse,
  type FormView,
} from '../support/api-client';
import { backdate } from '../support/database-edits';
import { useTestStack, type Tenant } from '../support/fixture';
import { submitForm, submitJson } from '../support/ingest-requests';

const t = useTestStack();

const listOf = (res: ApiResponse) => expectAnswer(res, 'GET /api/submissions', 200);
const submissionOf = (res: ApiResponse) =>
  expectAnswer(res, 'GET /api/submissions/{id}', 200).submission;

/** Inserts `count` submissions straight into PostgreSQL, n=1 newest, one minute apart. */
async function insertSubmissions(tenant: Tenant, formId: string, count: number) {
  await t.stack.sql(
    `insert into submissions (form_id, account_id, payload_json, created_at, updated_at)
     select ?, ?, jsonb_build_object('n', g), now() - g * interval '1 minute', now()
       from generate_series(1, ?::int) g`,
    [formId, tenant.accountId, count],
  );
}

describe('listing, reading and filtering', () => {
  let b: Tenant;
  let formOne: FormView;
  let formTwo: FormView;
  const ids: Record<'s1' | 's2' | 's3' | 'spam' | 'b1', string> = {
    s1: '',
    s2: '',
    s3: '',
    spam: '',
    b1: '',
  };

  beforeAll(async () => {
    b = await t.newTenant();
    formOne = await t.api.createForm({ name: 'One' });
    formTwo = await t.api.createForm({ name: 'Two' });
    const formB = await b.api.createForm({ name: 'B' });
    ids.s1 = await submitJson(
      formOne,
      {
        email: ' Ann@Example.com ',
        name: ' Ann ',
        message: 'hello blue world',
        color: 'blue',
        count: 3,
      },
      { 'user-agent': 'vitest-agent/1.0', referer: 'https://site.example/contact' },
    );
    ids.s2 = await submitForm(formOne, {
      comment: 'the quick brown fox jumps',
      _hp: '',
    });
    ids.s3 = await submitJson(formTwo, { message: 'green apple pie' });
    ids.spam = await submitForm(formOne, {
      message: 'buy cheap pills now',
      _hp: 'http://spam.example',
    });
    ids.b1 = await submitJson(formB, {
      message: 'hello blue world from b',
    });
  });

  describe('GET /api/submissions', () => {
    it('lists non-spam submissions only, newest first', async () => {
      expect(await t.api.submissionIds('/api/submissions')).toEqual([ids.s3, ids.s2, ids.s1]);
    });

    it('list items have at least id, form_id, payload_json and created_at', async () => {
      const item = listOf(await t.api.get('/api/submissions')).submissions.find(
        (s) => s.id === ids.s3,
      );
      expect(item).toMatchObject({
        id: ids.s3,
        form_id: formTwo.id,
        payload_json: { message: 'green apple pie' },
      });
      expect(Date.parse(item!.created_at)).not.toBeNaN();
    });

    it('a readonly key lists the same', async () => {
      expect(await t.readonly.submissionIds('/api/submissions')).toEqual([ids.s3, ids.s2, ids.s1]);
    });
  });

  describe('GET /api/submissions/spam', () => {
    it('lists only spam (filled honeypot)', async () => {
      const res = await t.api.get('/api/submissions/spam');
      const { submissions } = expectAnswer(res, 'GET /api/submissions/spam', 200);
      expect(submissions.map((s) => s.id)).toEqual([ids.spam]);
      expect(submissions[0]).toMatchObject({
        is_spam: true,
        spam_reason: 'honeypot',
        payload_json: { message: 'buy cheap pills now' },
      });
    });

    it('the honeypot field is not stored in the payload', async () => {
      const spam = submissionOf(await t.api.get(`/api/submissions/${ids.spam}`));
      expect(spam.payload_json).not.toHaveProperty('_hp');
      const clean = submissionOf(await t.api.get(`/api/submissions/${ids.s2}`));
      expect(clean.payload_json).toEqual({ comment: 'the quick brown fox jumps' });
    });

    it('needs can_read_spam_submissions → 403 for a readonly key', async () => {
      expectError(await t.readonly.get('/api/submissions/spam'), 403, 'forbidden');
    });
  });

  describe('GET /api/submissions/{id}', () => {
    it('returns the full field set', async () => {
      const s = submissionOf(await t.api.get(`/api/submissions/${ids.s1}`));
      expect(s).toMatchObject({
        id: ids.s1,
        form_id: formOne.id,
        form_endpoint_token: formOne.endpoint_token,
        payload_json: {
          email: ' Ann@Example.com ',
          name: ' Ann ',
          message: 'hello blue world',
          color: 'blue',
          count: 3,
        },
        special_normalized: { email: 'ann@example.com', name: 'Ann', message: 'hello blue world' },
        source_ip: '127.0.0.1',
        user_agent: 'vitest-agent/1.0',
        referrer: 'https://site.example/contact',
        is_spam: false,
      });
      expect(Date.parse(s.created_at)).not.toBeNaN();
      expect(Date.parse(s.updated_at)).not.toBeNaN();
      expect(hrefOf(s.links, 'self')).toBe(`${t.stack.url}/api/submissions/${ids.s1}`);
      expect(hrefOf(s.links, 'form')).toBe(`${t.stack.url}/api/forms/${formOne.id}`);
    });

    it('special_normalized is null without special fields; referrer null without Referer', async () => {
      const s = submissionOf(await t.api.get(`/api/submissions/${ids.s2}`));
      expect(s.special_normalized).toBeNull();
      expect(s.referrer).toBeNull();
    });

    it('a spam submission is 404 without the spam scope and 200 with it', async () => {
      expectError(await t.readonly.get(`/api/submissions/${ids.spam}`), 404, 'not_found');
      expect(submissionOf(await t.api.get(`/api/submissions/${ids.spam}`)).is_spam).toBe(true);
    });

    it('a readonly key reads a non-spam submission', async () => {
      expect(submissionOf(await t.readonly.get(`/api/submissions/${ids.s1}`)).id).toBe(ids.s1);
    });

    it.each(['999999999', 'abc', '1e3'])('%s → 404 not_found', async (id) => {
      expectError(await t.api.get(`/api/submissions/${id}`), 404, 'not_found');
    });
  });

  describe('form_id filter', () => {
    it('by form id', async () => {
      expect(await t.api.submissionIds(`/api/submissions?form_id=${formOne.id}`)).toEqual([
        ids.s2,
        ids.s1,
      ]);
    });

    it('by endpoint token', async () => {
      expect(
        await t.api.submissionIds(`/api/submissions?form_id=${formTwo.endpoint_token}`),
      ).toEqual([ids.s3]);
    });

    it('`all` means every form', async () => {
      expect(await t.api.submissionIds('/api/submissions?form_id=all')).toEqual([
        ids.s3,
        ids.s2,
        ids.s1,
      ]);
    });

    it('on the spam list', async () => {
      expect(await t.api.submissionIds(`/api/submissions/spam?form_id=${formOne.id}`)).toEqual([
        ids.spam,
      ]);
      expect(await t.api.submissionIds(`/api/submissions/spam?form_id=${formTwo.id}`)).toEqual([]);
    });

    it.each(['424242424', 'nosuchform123456', 'a%00b'])('unknown form %s → 404', async (formId) => {
      expectError(await t.api.get(`/api/submissions?form_id=${formId}`), 404, 'not_found');
    });
  });

  describe('q (full-text search)', () => {
    it.each([
      ['blue', ['s1']],
      ['BLUE', ['s1']],
      ['apple', ['s3']],
      ['nomatchxyz', []],
      ['"quick brown"', ['s2']],
      ['"brown quick"', []],
      ['quick -fox', []],
      ['pills', []],
    ] as const)('q=%s', async (q, expected) => {
      const found = await t.api.submissionIds(`/api/submissions?q=${encodeURIComponent(q)}`);
      expect(found).toEqual(expected.map((k) => ids[k]));
    });

    it('search syntax characters are taken as text, never as a server error', async () => {
      for (const q of [`it's`, '"unbalanced', 'a & | ! b', ':*', '()', '\\']) {
        const res = await t.api.get(`/api/submissions?q=${encodeURIComponent(q)}`);
        expect(res.status, `${q}: ${res.text}`).toBe(200);
        expect(listOf(res).submissions).toEqual([]);
      }
    });

    it('a NUL character in q is refused or matches nothing, never a 500', async () => {
      const res = await t.api.get('/api/submissions?q=blue%00world');
      expect([200, 422], res.text).toContain(res.status);
      if (res.status === 200) expect(listOf(res).submissions).toEqual([]);
    });

    it('combines with form_id', async () => {
      expect(await t.api.submissionIds(`/api/submissions?q=blue&form_id=${formTwo.id}`)).toEqual(
        [],
      );
      expect(await t.api.submissionIds(`/api/submissions?q=blue&form_id=${formOne.id}`)).toEqual([
        ids.s1,
      ]);
    });

    it('works on the spam list', async () => {
      expect(await t.api.submissionIds('/api/submissions/spam?q=pills')).toEqual([ids.spam]);
      expect(await t.api.submissionIds('/api/submissions/spam?q=blue')).toEqual([]);
    });
  });

  describe('isolation between accounts', () => {
    it('account B lists only its own submission', async () => {
      expect(await b.api.submissionIds('/api/submissions?range=all')).toEqual([ids.b1]);
      expect(await b.api.submissionIds('/api/submissions/spam?range=all')).toEqual([]);
    });

    it('account B cannot read A’s submissions by id, spam included', async () => {
      for (const id of [ids.s1, ids.spam]) {
        expectError(await b.api.get(`/api/submissions/${id}`), 404, 'not_found');
      }
    });

    it('search never crosses accounts', async () => {
      expect(await b.api.submissionIds('/api/submissions?q=blue')).toEqual([ids.b1]);
      expect(await t.api.submissionIds('/api/submissions?q=blue')).toEqual([ids.s1]);
      expect(await b.api.submissionIds('/api/submissions?q=apple')).toEqual([]);
    });

    it('A’s form id is unknown to B', async () => {
      expectError(await b.api.get(`/api/submissions?form_id=${formOne.id}`), 404, 'not_found');
    });
  });
});

describe('range', () => {
  let tenant: Tenant;
  const ages = ['0 hours', '23 hours', '25 hours', '6 days', '8 days', '29 days', '31 days'];
  const byAge: Record<string, string> = {};
  let spamId: string;

  beforeAll(async () => {
    tenant = await t.newTenant();
    const form = await tenant.api.createForm({ name: 'Ranged' });
    for (const age of ages) {
      byAge[age] = await submitJson(form, { age });
      if (age !== '0 hours') await backdate(t.stack, byAge[age]!, age);
    }
    spamId = await submitJson(form, { age: 'spam', _hp: 'x' });
    await backdate(t.stack, spamId, '3 days');
  });

  const expectAges = async (query: string, expected: string[]) => {
    const found = await tenant.api.submissionIds(`/api/submissions${query}`);
    expect(found).toEqual(expected.map((age) => byAge[age]));
  };

  it('defaults to the last 24 hours', async () => {
    await expectAges('', ['0 hours', '23 hours']);
    await expectAges('?range=24h', ['0 hours', '23 hours']);
  });

  it('7d', async () => {
    await expectAges('?range=7d', ['0 hours', '23 hours', '25 hours', '6 days']);
  });

  it('30d', async () => {
    await expectAges('?range=30d', ages.slice(0, 6));
  });

  it('all', async () => {
    await expectAges('?range=all', ages);
  });

  it('applies to the spam list', async () => {
    expect(await tenant.api.submissionIds('/api/submissions/spam')).toEqual([]);
    expect(await tenant.api.submissionIds('/api/submissions/spam?range=7d')).toEqual([spamId]);
  });

  it.each(['1y', '24H', '', 'week'])('range=%s → 422', async (range) => {
    expectValidationError(await tenant.api.get(`/api/submissions?range=${range}`), 'range');
  });

  it('meta.total follows the range', async () => {
    expect(listOf(await tenant.api.get('/api/submissions?range=7d')).meta.total).toBe(4);
  });
});

describe('pagination', () => {
  let tenant: Tenant;
  let small: FormView;
  let big: FormView;
  const page = (query: string) =>
    tenant.api.get(`/api/submissions?form_id=${small.id}&range=all&${query}`);
  const ns = (res: ApiResponse) => listOf(res).submissions.map((s) => s.payload_json.n);

  beforeAll(async () => {
    tenant = await t.newTenant();
    small = await tenant.api.createForm({ name: 'Seven' });
    big = await tenant.api.createForm({ name: 'Five hundred and twenty' });
    await insertSubmissions(tenant, small.id, 7);
    await insertSubmissions(tenant, big.id, 520);
  });

  it('first page: meta, items, and first/last/next but no prev', async () => {
    const res = await page('per_page=3');
    const { meta, links } = listOf(res);
    expect(meta).toMatchObject({ page: 1, per_page: 3, total: 7, total_pages: 3 });
    expect(ns(res)).toEqual([1, 2, 3]);
    expect(rels(links).sort()).toEqual(['first', 'last', 'next', 'self']);
    const header = parseLinkHeader(res.headers.get('link'));
    expect(Object.keys(header).sort()).toEqual(['first', 'last', 'next', 'self']);
    expect(header.next).toBe(hrefOf(links, 'next'));
  });

  it('middle page has next and prev', async () => {
    const res = await page('per_page=3&page=2');
    const { meta, links } = listOf(res);
    expect(meta).toMatchObject({ page: 2, per_page: 3, total: 7, total_pages: 3 });
    expect(ns(res)).toEqual([4, 5, 6]);
    expect(rels(links).sort()).toEqual(['first', 'last', 'next', 'prev', 'self']);
  });

  it('last page has prev but no next', async () => {
    const res = await page('per_page=3&page=3');
    expect(ns(res)).toEqual([7]);
    expect(rels(listOf(res).links)).not.toContain('next');
    expect(rels(listOf(res).links)).toContain('prev');
  });

  it('following next, then last, walks the pages and keeps the filters', async () => {
    const first = listOf(await page('per_page=3'));
    const next = hrefOf(first.links, 'next')!;
    expect(next).toContain(`form_id=${small.id}`);
    expect(next).toContain('range=all');
    const second = await t.http.get(next, { key: tenant.adminKey });
    expect(ns(second)).toEqual([4, 5, 6]);
    const last = hrefOf(first.links, 'last')!;
    expect(ns(await t.http.get(last, { key: tenant.adminKey }))).toEqual([7]);
  });

  it('a page beyond the end is an empty list with the real total', async () => {
    const beyond = listOf(await page('per_page=3&page=9'));
    expect(beyond.submissions).toEqual([]);
    expect(beyond.meta).toMatchObject({ page: 9, total: 7, total_pages: 3 });
    expect(rels(beyond.links)).not.toContain('next');
  });

  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=1.5', 'page'],
    ['page=abc', 'page'],
    ['per_page=0', 'per_page'],
    ['per_page=abc', 'per_page'],
    ['per_page=', 'per_page'],
  ])('%s → 422', async (query, field) => {
    expectValidationError(await page(query), field);
  });

  it('a page number too large for the database is refused or empty, never a 500', async () => {
    const res = await page('per_page=50&page=99999999999999999999');
    expect(res.status, res.text).not.toBe(500);
    if (res.status === 200) expect(listOf(res).submissions).toEqual([]);
    else expectValidationError(res, 'page');
  });

  it('per_page defaults to 50', async () => {
    const list = listOf(await tenant.api.get(`/api/submissions?form_id=${big.id}&range=all`));
    expect(list.submissions).toHaveLength(50);
    expect(list.meta).toMatchObject({ page: 1, per_page: 50, total: 520, total_pages: 11 });
  });

  it('per_page=1000 is clamped to 500 and meta says so', async () => {
    const res = await tenant.api.get(`/api/submissions?form_id=${big.id}&range=all&per_page=1000`);
    const list = listOf(res);
    expect(list.submissions).toHaveLength(500);
    expect(list.meta).toMatchObject({
      page: 1,
      per_page: 500,
      total: 520,
      total_pages: 2,
      per_page_clamped: true,
      max_per_page: 500,
      requested_per_page: 1000,
    });
    const next = listOf(await t.http.get(hrefOf(list.links, 'next')!, { key: tenant.adminKey }));
    expect(next.submissions).toHaveLength(20);
    expect(next.submissions.at(-1)!.payload_json.n).toBe(520);
  });

  it('per_page=500 is not reported as clamped', async () => {
    const res = await tenant.api.get(`/api/submissions?form_id=${big.id}&range=all&per_page=500`);
    expect(listOf(res).submissions).toHaveLength(500);
    expect(listOf(res).meta.per_page_clamped).toBeUndefined();
  });
});
