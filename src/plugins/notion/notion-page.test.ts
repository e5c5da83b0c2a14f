import { describe, expect, it } from 'vitest';
import { parseAllowList } from '../../outbound/address-policy';
import { checkPluginConfig } from '../registry';
import { readNotionAnswer } from './notion-answer';
import { readNotionDatabase, type NotionDatabase } from './notion-database';
import { notionPageBody, propertyValue, textChunks } from './notion-page';

const urls = { allowList: parseAllowList([]) };
const TOKEN = `ntn_${'a1B2c3D4e5'.repeat(4)}`;
const HEX = '0123456789abcdef0123456789abcdef';
const UUID = '01234567-89ab-cdef-0123-456789abcdef';

const check = (config: Record<string, unknown>) => checkPluginConfig('notion', config, urls);

describe('the notion config', () => {
  it('takes a secret and a database id with or without dashes, or its address', async () => {
    for (const database of [
      HEX,
      UUID,
      HEX.toUpperCase(),
      `https://www.notion.so/acme/Leads-${HEX}?v=fedcba9876543210fedcba9876543210&pvs=4`,
      `https://www.notion.so/${HEX}`,
    ])
      expect(await check({ token: ` ${TOKEN} `, database })).toEqual({
        ok: true,
        config: { token: TOKEN, database: UUID },
      });
    expect((await check({ token: `secret_${'x'.repeat(43)}`, database: HEX })).ok).toBe(true);
  });

  it('refuses what is not a secret or a database, field by field', async () => {
    expect(await check({})).toEqual({
      ok: false,
      errors: ['token: is required', 'database: is required'],
    });
    expect(await check({ token: 'ntn_short', database: 'Leads' })).toEqual({
      ok: false,
      errors: [
        'token: must be an integration secret (ntn_… or secret_…)',
        'database: must be a database id (32 hexadecimal digits) or the database’s address',
      ],
    });
    // Another host's address, or a view id only in the query, is no database address.
    for (const database of [`https://evil.example/${HEX}`, `https://www.notion.so/x?v=${HEX}`])
      expect((await check({ token: TOKEN, database })).ok).toBe(false);
  });
});

const DATABASE: NotionDatabase = {
  id: UUID,
  titleProperty: 'Name',
  properties: [
    { name: 'Name', type: 'title', options: [] },
    { name: 'Email', type: 'email', options: [] },
    { name: 'Age', type: 'number', options: [] },
    { name: 'Site', type: 'url', options: [] },
    { name: 'Plan', type: 'select', options: ['Free', 'Pro'] },
    { name: 'Tags', type: 'multi_select', options: ['a', 'b'] },
    { name: 'Agreed', type: 'checkbox', options: [] },
    { name: 'Received at', type: 'date', options: [] },
    { name: 'Owner', type: 'people', options: [] },
  ],
};
const source = (payload: Record<string, unknown>) => ({
  submissionId: '42',
  createdAt: new Date('2026-01-02T03:04:05Z'),
  formName: 'Contact',
  payload,
});
const texts = (blocks: Array<{ paragraph: { rich_text: Array<{ text: { content: string } }> } }>) =>
  blocks.map((b) => b.paragraph.rich_text.map((t) => t.text.content).join(''));

describe('the notion page', () => {
  it('fills the properties named like fields when the value fits, the rest into paragraphs', () => {
    const body = notionPageBody(
      DATABASE,
      source({
        name: 'Ada',
        email: 'ada@example.com',
        Age: 'forty',
        Site: 'javascript:alert(1)',
        Plan: 'Enterprise',
        Tags: ['a', 'b'],
        Agreed: 'on',
        Owner: 'me',
        message: '**bold** <script>x</script> @everyone',
      }),
    );
    expect(body.parent).toEqual({ database_id: UUID });
    expect(body.properties).toEqual({
      'Received at': { date: { start: '2026-01-02T03:04:05.000Z' } },
      Name: { title: [{ type: 'text', text: { content: 'Ada' } }] },
      Email: { email: 'ada@example.com' },
      Tags: { multi_select: [{ name: 'a' }, { name: 'b' }] },
      Agreed: { checkbox: true },
    });
    expect(texts(body.children)).toEqual([
      'Age: forty',
      'Site: javascript:alert(1)',
      'Plan: Enterprise',
      'Owner: me',
      'message: **bold** <script>x</script> @everyone',
      'Submission: 42, received 2026-01-02T03:04:05.000Z',
    ]);
    expect(body.children[0]!.paragraph.rich_text[0]).toMatchObject({ annotations: { bold: true } });
  });

  it('titles a page with the form and time when no field fills the title', () => {
    const body = notionPageBody(DATABASE, source({ 'Received at': 'spoofed' }));
    expect(body.properties.Name).toEqual({
      title: [{ type: 'text', text: { content: 'Contact · 2026-01-02T03:04:05.000Z' } }],
    });
    expect(body.properties['Received at']).toEqual({ date: { start: '2026-01-02T03:04:05.000Z' } });
    expect(texts(body.children)[0]).toBe('Received at: spoofed');
  });

  it('cuts text into 2000-character objects without splitting a character', () => {
    const long = `${'x'.repeat(1999)}😀${'y'.repeat(3000)}`;
    const chunks = textChunks(long);
    expect(chunks.map((c) => c.text.content.length)).toEqual([1999, 2000, 1002]);
    expect(chunks.map((c) => c.text.content).join('')).toBe(long);
    expect(textChunks('z'.repeat(5000), 2).map((c) => c.text.content.length)).toEqual([2000, 2000]);
    expect(textChunks('z'.repeat(5000), 2)[1]!.text.content.endsWith('…')).toBe(true);
  });

  it('keeps 200 fields within 100 paragraphs of at most 100 text objects', () => {
    const payload = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`f${i}`, `v${i}`]));
    const body = notionPageBody(DATABASE, source(payload));
    expect(body.children.length).toBeLessThanOrEqual(100);
    for (const block of body.children)
      expect(block.paragraph.rich_text.length).toBeLessThanOrEqual(100);
    const all = texts(body.children).join('\n');
    expect(all).toContain('f0: v0\nf1: v1');
    expect(all).toContain('f199: v199');
  });

  it('takes numbers, dates and checkboxes only when they are such', () => {
    const prop = (type: string) => ({ name: 'x', type, options: [] });
    expect(propertyValue(prop('number'), ' 3.5 ')).toEqual({ number: 3.5 });
    expect(propertyValue(prop('number'), '1e999')).toBeNull();
    expect(propertyValue(prop('date'), '2026-13-45')).toBeNull();
    expect(propertyValue(prop('date'), '2026-02-03')).toEqual({ date: { start: '2026-02-03' } });
    expect(propertyValue(prop('checkbox'), 'maybe')).toBeNull();
    expect(propertyValue(prop('url'), 'https://example.com/a')).toEqual({
      url: 'https://example.com/a',
    });
    expect(propertyValue(prop('email'), 'a b@example.com')).toBeNull();
  });
});

describe("Notion's answers", () => {
  it('reads a database: its title property and select options', () => {
    const answer = JSON.stringify({
      object: 'database',
      id: UUID,
      properties: {
        Title: { id: 'title', name: 'Title', type: 'title', title: {} },
        Plan: { id: 'a', name: 'Plan', type: 'select', select: { options: [{ name: 'Pro' }] } },
      },
    });
    expect(readNotionDatabase(answer)).toEqual({
      id: UUID,
      titleProperty: 'Title',
      properties: [
        { name: 'Title', type: 'title', options: [] },
        { name: 'Plan', type: 'select', options: ['Pro'] },
      ],
    });
    expect(readNotionDatabase('{"object":"page"}')).toBeNull();
    expect(readNotionDatabase('<html>')).toBeNull();
  });

  it('fails for good on 401, 403, 404 and 400; retries 409, 429 and 5xx', () => {
    expect(readNotionAnswer(404, '{"object":"error","code":"object_not_found"}', UUID)).toEqual({
      error: `the database ${UUID} does not exist or is not shared with the integration (404 object_not_found): in Notion, open the database's ••• menu, Connections, and add the integration`,
      permanent: true,
    });
    for (const status of [400, 401, 403])
      expect(readNotionAnswer(status, '', UUID).permanent).toBe(true);
    for (const status of [409, 429, 500, 503])
      expect(readNotionAnswer(status, '', UUID).permanent).toBe(false);
  });
});
