import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createTypedPlugin } from '../../src/plugins/manage/plugins';
import { sealConfig } from '../../src/plugins/manage/plugin-secrets';
import { PLUGIN_TYPES } from '../../src/plugins/registry';
import { expectAnswer } from '../support/api-client';
import { startFakeAirtable, type FakeAirtable } from '../support/fake-airtable';
import { startFakeNotion, type FakeNotion } from '../support/fake-notion';
import { useTestStack } from '../support/fixture';
import { submitJson } from '../support/ingest-requests';
import { FAST_DELIVERY_ENV, waitForAttempts } from '../support/delivery-attempts';

// Airtable and Notion plugins end to end (docs/plugins.md): real ingest, a real worker, and
// fakes of both APIs on 127.0.0.1 over real TLS, reached through AIRTABLE_API_URL and
// NOTION_API_URL.

const AIRTABLE_TOKEN = `patFormwardTest01.${'0a1b2c3d4e5f6789'.repeat(4)}`;
const NOTION_TOKEN = `ntn_${'FormwardNotionTest'.repeat(3)}`;
const BASE = 'appFormwardTest01';
const TABLE = 'tblFormwardTest01';
const DATABASE = '0123abcd-0123-4567-89ab-0123456789ab';
const UNSHARED = 'ffffffff-0123-4567-89ab-0123456789ab';

let airtable: FakeAirtable;
let notion: FakeNotion;

beforeAll(async () => {
  const certificates = inject('stack').certificates;
  airtable = await startFakeAirtable(certificates, {
    token: AIRTABLE_TOKEN,
    tables: [
      {
        base: BASE,
        id: TABLE,
        name: 'Leads',
        fields: ['name', 'message', 'topics', 'Submission ID', 'Received at'],
      },
    ],
  });
  notion = await startFakeNotion(certificates, {
    token: NOTION_TOKEN,
    databases: [
      {
        id: DATABASE,
        properties: {
          Name: { type: 'title' },
          Email: { type: 'email' },
          Plan: { type: 'select', options: ['Free', 'Pro'] },
          'Received at': { type: 'date' },
          // Options enough to make the database's description pass the stored 4 KB.
          Country: {
            type: 'select',
            options: Array.from({ length: 200 }, (_, i) => `Country ${i}`),
          },
        },
      },
      { id: UNSHARED, properties: { Name: { type: 'title' } }, shared: false },
    ],
  });
});

afterAll(async () => {
  await airtable?.close();
  await notion?.close();
});

const t = useTestStack(() => ({
  worker: true,
  env: { ...FAST_DELIVERY_ENV, AIRTABLE_API_URL: airtable.url, NOTION_API_URL: notion.url },
}));

/** A form with one plugin of the type, its token sealed as the dashboard stores it. */
async function formWith(type: 'airtable' | 'notion', config: Record<string, unknown>) {
  const form = await t.api.createForm({ name: `${type} ${Math.random().toString(36).slice(2)}` });
  const plugin = await createTypedPlugin(
    t.stack.ctx.orm.em.fork(),
    {
      formId: form.id,
      type,
      config: sealConfig(PLUGIN_TYPES[type], config, t.stack.ctx.pluginSecrets),
    },
    0,
  );
  return { form, plugin, path: `/api/forms/${form.id}/plugins/${plugin.id}` };
}

/** Neither the plugin's view, its delivery log, nor the stored row holds the token. */
async function expectTokenNowhere(path: string, token: string) {
  const view = expectAnswer(await t.api.get(path), 'GET /api/forms/{form_id}/plugins/{id}', 200);
  expect(view.plugin.config.token).toBe('••••••••');
  const log = await t.api.get(`${path}/deliveries`);
  expectAnswer(log, 'GET /api/forms/{form_id}/plugins/{id}/deliveries', 200);
  expect(JSON.stringify(view)).not.toContain(token);
  expect(log.text).not.toContain(token);
  const stored = await t.stack.sql<{ text: string }>(
    `select p.config::text || coalesce(string_agg(a.error || ' ' || coalesce(a.response_body, ''), ' '), '') as text
       from plugins p left join delivery_attempts a on a.plugin_id = p.id
      where p.id = ? group by p.id`,
    [path.split('/').at(-1)],
  );
  expect(stored[0]!.text).not.toContain(token);
}

const HOSTILE = {
  name: '=HYPERLINK("https://evil.example","click")',
  // No markup: the spam rules would keep it from any plugin.
  message: '**bold** @everyone [click](javascript:alert(1)) {{7*7}}',
  topics: ['a', 'b'],
};

describe('Airtable plugin', () => {
  const config = { token: AIRTABLE_TOKEN, base: BASE, table: 'Leads' };

  it('creates one record per submission, values as text, with its id and time', async () => {
    const { form, plugin, path } = await formWith('airtable', config);
    const id = await submitJson(form, HOSTILE);
    const attempts = await waitForAttempts(t.stack, id, 1);
    expect(attempts).toEqual([
      expect.objectContaining({ plugin_id: plugin.id, status: 'succeeded', http_status: 200 }),
    ]);
    const request = airtable.received.at(-1)!;
    expect(request.path).toBe(`/v0/${BASE}/Leads`);
    expect(request.headers.authorization).toBe(`Bearer ${AIRTABLE_TOKEN}`);
    expect(JSON.parse(request.body).typecast).toBe(true);
    const record = airtable.records.find((r) => r.fields['Submission ID'] === id)!;
    expect(record.fields).toEqual({
      name: HOSTILE.name,
      message: HOSTILE.message,
      topics: 'a, b',
      'Submission ID': id,
      'Received at': expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    await expectTokenNowhere(path, AIRTABLE_TOKEN);
  });

  it('a 429 with Retry-After is retried after it, under the same delivery id', async () => {
    const { form } = await formWith('airtable', config);
    airtable.script({ status: 429, headers: { 'retry-after': '2' }, body: '{"errors":[]}' });
    const before = airtable.received.length;
    const id = await submitJson(form, { name: 'Ada' });
    const attempts = await waitForAttempts(t.stack, id, 2);
    expect(attempts.map((a) => [a.attempt, a.status, a.http_status])).toEqual([
      [1, 'pending_retry', 429],
      [2, 'succeeded', 200],
    ]);
    expect(attempts[0]!.error).toMatch(/^Airtable is rate limiting \(429;/);
    const [first, second] = airtable.received.slice(before);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1_900);
    expect(new Set(attempts.map((a) => a.delivery_id)).size).toBe(1);
  });

  it('a refused token fails at once, counts against the plugin health and leaves it enabled', async () => {
    const wrong = { ...config, token: `patWrongToken0001.${'f'.repeat(64)}` };
    const { form, path } = await formWith('airtable', wrong);
    const id = await submitJson(form, { name: 'Ada' });
    const attempts = await waitForAttempts(t.stack, id, 1);
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // no retry comes
    expect(await waitForAttempts(t.stack, id, 1)).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ status: 'failed', http_status: 401 });
    expect(attempts[0]!.error).toMatch(
      /^Airtable refused the token \(401 AUTHENTICATION_REQUIRED\)/,
    );
    const { plugin } = expectAnswer(
      await t.api.get(path),
      'GET /api/forms/{form_id}/plugins/{id}',
      200,
    );
    expect(plugin).toMatchObject({ enabled: true, consecutive_failures: 1 });
    await expectTokenNowhere(path, wrong.token);
  });

  it('a field the table has no column for fails at once, naming it', async () => {
    const { form } = await formWith('airtable', { ...config, table: TABLE });
    const id = await submitJson(form, { name: 'Ada', Phone: '+1 555' });
    const attempts = await waitForAttempts(t.stack, id, 1);
    expect(attempts).toEqual([expect.objectContaining({ status: 'failed', http_status: 422 })]);
    expect(attempts[0]!.error).toBe(
      'the Airtable table has no field "Phone" (422 UNKNOWN_FIELD_NAME): add the column, or leave the field out of this plugin, then recover the failed deliveries',
    );
  });
});

describe('Notion plugin', () => {
  const config = { token: NOTION_TOKEN, database: DATABASE };
  const pageOf = (id: string) =>
    notion.pages.find((page) =>
      page.children.some((block) =>
        block.paragraph?.rich_text.some((text) => text.text.content.includes(id)),
      ),
    );

  it('creates one page per submission: properties by name, the other fields as paragraphs', async () => {
    const { form, path } = await formWith('notion', config);
    const reads = () => notion.received.filter((r) => r.method === 'GET').length;
    const readsBefore = reads();
    const id = await submitJson(form, { ...HOSTILE, email: 'ada@example.com', Plan: 'Pro' });
    await waitForAttempts(t.stack, id, 1);
    const read = notion.received.filter((r) => r.method === 'GET').at(-1)!;
    expect(read.path).toBe(`/v1/databases/${DATABASE}`);
    const page = pageOf(id)!;
    expect(page.databaseId).toBe(DATABASE);
    expect(page.properties).toEqual({
      'Received at': { date: { start: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) } },
      Name: { title: [{ type: 'text', text: { content: HOSTILE.name } }] },
      Email: { email: 'ada@example.com' },
      Plan: { select: { name: 'Pro' } },
    });
    const paragraphs = page.children.map((b) =>
      b.paragraph!.rich_text.map((text) => text.text.content).join(''),
    );
    // In the stored payload's order (jsonb's), then the submission's own line.
    expect(paragraphs).toHaveLength(3);
    expect(paragraphs).toEqual(
      expect.arrayContaining([`message: ${HOSTILE.message}`, 'topics: a, b']),
    );
    expect(paragraphs[2]).toMatch(new RegExp(`^Submission: ${id}, received `));
    const create = notion.received.filter((r) => r.method === 'POST').at(-1)!;
    expect(create.headers['notion-version']).toBe('2022-06-28');
    expect(create.headers.authorization).toBe(`Bearer ${NOTION_TOKEN}`);

    // A second submission: the worker still knows the database, and an unknown option goes
    // into the page rather than creating one.
    const second = await submitJson(form, { name: 'Bob', Plan: 'Enterprise' });
    expect(await waitForAttempts(t.stack, second, 1)).toEqual([
      expect.objectContaining({ status: 'succeeded', http_status: 200 }),
    ]);
    expect(reads() - readsBefore).toBe(1);
    expect(pageOf(second)!.properties.Plan).toBeUndefined();
    await expectTokenNowhere(path, NOTION_TOKEN);
  });

  it('a 429 with Retry-After is retried after it', async () => {
    const { form } = await formWith('notion', config);
    notion.script({
      status: 429,
      headers: { 'retry-after': '2', 'content-type': 'application/json' },
      body: '{"object":"error","status":429,"code":"rate_limited","message":"Rate limited"}',
    });
    const before = notion.received.length;
    const id = await submitJson(form, { name: 'Ada' });
    const attempts = await waitForAttempts(t.stack, id, 2);
    expect(attempts.map((a) => [a.attempt, a.status, a.http_status])).toEqual([
      [1, 'pending_retry', 429],
      [2, 'succeeded', 200],
    ]);
    const [first, second] = notion.received.slice(before);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1_900);
    expect(pageOf(id)).toBeDefined();
  });

  it('a database not shared with the integration fails at once, saying so', async () => {
    const { form, path } = await formWith('notion', { ...config, database: UNSHARED });
    const id = await submitJson(form, { name: 'Ada' });
    const attempts = await waitForAttempts(t.stack, id, 1);
    expect(attempts).toEqual([expect.objectContaining({ status: 'failed', http_status: 404 })]);
    expect(attempts[0]!.error).toMatch(
      /^the database ffffffff-.* does not exist or is not shared with the integration \(404 object_not_found\)/,
    );
    const { plugin } = expectAnswer(
      await t.api.get(path),
      'GET /api/forms/{form_id}/plugins/{id}',
      200,
    );
    expect(plugin).toMatchObject({ enabled: true, consecutive_failures: 1 });
  });

  it('a refused secret fails at once; an answer echoing it is stored without it', async () => {
    const wrong = `ntn_${'WrongSecret'.repeat(4)}`;
    const { form, path } = await formWith('notion', { ...config, token: wrong });
    const id = await submitJson(form, { name: 'Ada' });
    const attempts = await waitForAttempts(t.stack, id, 1);
    expect(attempts[0]).toMatchObject({ status: 'failed', http_status: 401 });
    expect(attempts[0]!.error).toMatch(
      /^Notion refused the integration secret \(401 unauthorized\)/,
    );

    notion.script({
      status: 400,
      body: JSON.stringify({ object: 'error', code: 'validation_error', message: `bad ${wrong}` }),
    });
    const echoed = await submitJson(form, { name: 'Eve' });
    const [echo] = await waitForAttempts(t.stack, echoed, 1);
    expect(echo).toMatchObject({ status: 'failed', http_status: 400 });
    expect(echo!.error).toBe('Notion refused the request (400 validation_error): bad [secret]');
    await expectTokenNowhere(path, wrong);
  });
});
