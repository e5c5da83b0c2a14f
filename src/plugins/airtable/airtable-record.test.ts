import { describe, expect, it } from 'vitest';
import { parseAllowList } from '../../outbound/address-policy';
import { checkPluginConfig } from '../registry';
import { airtableRecordBody, airtableRecordsUrl } from './airtable-record';
import { readAirtableAnswer } from './airtable-answer';
import { airtableType } from './declaration';

const urls = { allowList: parseAllowList([]) };
const TOKEN = `patAbCdEfGh123456.${'0123456789abcdef'.repeat(4)}`;
const BASE = 'appAbCdEfGh123456';
const TABLE = 'tblZyXwVu98765432';

const check = (config: Record<string, unknown>) => checkPluginConfig('airtable', config, urls);

describe('the airtable config', () => {
  it('takes a token, a base id and a table name or id, trimmed', async () => {
    expect(await check({ token: ` ${TOKEN} `, base: BASE, table: ' Leads 2026 ' })).toEqual({
      ok: true,
      config: { token: TOKEN, base: BASE, table: 'Leads 2026' },
    });
    expect(await check({ token: TOKEN, base: BASE, table: TABLE })).toMatchObject({
      config: { table: TABLE },
    });
  });

  it('reads the base and table from a pasted address', async () => {
    const address = `https://airtable.com/${BASE}/${TABLE}/viwQqQqQqQqQqQqQq?blocks=hide`;
    expect(await check({ token: TOKEN, base: address })).toEqual({
      ok: true,
      config: { token: TOKEN, base: BASE, table: TABLE },
    });
    // A table typed beside it wins; a table address in the table field is read too.
    expect(await check({ token: TOKEN, base: address, table: 'Other' })).toMatchObject({
      config: { table: 'Other' },
    });
    expect(
      await check({ token: TOKEN, base: BASE, table: `https://airtable.com/${BASE}/${TABLE}` }),
    ).toMatchObject({ config: { table: TABLE } });
  });

  it('refuses what is not a token, a base or a table, field by field', async () => {
    expect(await check({})).toEqual({
      ok: false,
      errors: ['token: is required', 'base: is required'],
    });
    expect(await check({ token: 'hunter2', base: 'my base', table: 'T' })).toEqual({
      ok: false,
      errors: ['token: must be a personal access token (it starts with pat)'],
    });
    expect((await check({ token: 'keyAbCdEfGh123456', base: BASE, table: 'T' })).ok).toBe(false);
    expect(await check({ token: TOKEN, base: 'https://evil.example/appAbCdEfGh123456' })).toEqual({
      ok: false,
      errors: [
        'base: must be a base id (app followed by 14 letters and digits) or the base’s address',
      ],
    });
    expect(await check({ token: TOKEN, base: BASE })).toEqual({
      ok: false,
      errors: ['table: is required (the table’s name, its id tbl…, or its address)'],
    });
    expect(await check({ token: TOKEN, base: BASE, table: 'a\nb' })).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/^table: must be a table name/)],
    });
  });

  it('names and summarises without the token', () => {
    const config = { token: TOKEN, base: BASE, table: 'Leads' };
    expect(airtableType.defaultName(config)).toBe('Airtable table Leads');
    expect(airtableType.summary({ base: BASE, table: 'Leads' })).toBe(
      `Airtable base ${BASE}, table Leads`,
    );
  });
});

describe('the airtable record', () => {
  it('holds every field as text, then the submission id and time, which a field cannot replace', () => {
    const body = airtableRecordBody({
      submissionId: '42',
      createdAt: new Date('2026-01-02T03:04:05Z'),
      payload: {
        name: '=HYPERLINK("https://evil.example","x")',
        topics: ['a', 'b'],
        age: 7,
        nested: { x: 1 },
        empty: null,
        ['__proto__']: 'kept',
        'Submission ID': 'spoofed',
      },
    });
    expect(body).toEqual({
      records: [
        {
          fields: {
            name: '=HYPERLINK("https://evil.example","x")',
            topics: 'a, b',
            age: '7',
            nested: '{"x":1}',
            empty: '',
            ['__proto__']: 'kept',
            'Submission ID': '42',
            'Received at': '2026-01-02T03:04:05.000Z',
          },
        },
      ],
      typecast: true,
    });
    expect(Object.keys(body.records[0]!.fields)).toContain('__proto__');
  });

  it('escapes the table name in the URL', () => {
    expect(airtableRecordsUrl('https://api.airtable.com', BASE, 'Leads / 2026?x')).toBe(
      `https://api.airtable.com/v0/${BASE}/Leads%20%2F%202026%3Fx`,
    );
  });
});

describe("Airtable's answers", () => {
  const target = { base: BASE, table: 'Leads' };
  it('names the missing columns of a 422 UNKNOWN_FIELD_NAME, for good', () => {
    const body =
      '{"error":{"type":"UNKNOWN_FIELD_NAME","message":"Unknown field name: \\"Phone\\""}}';
    expect(readAirtableAnswer(422, body, target)).toEqual({
      error:
        'the Airtable table has no field "Phone" (422 UNKNOWN_FIELD_NAME): add the column, or leave the field out of this plugin, then recover the failed deliveries',
      permanent: true,
    });
  });

  it('fails for good on a refused token, a missing table and a refused record; retries 429 and 5xx', () => {
    const auth = '{"error":{"type":"AUTHENTICATION_REQUIRED","message":"Authentication required"}}';
    expect(readAirtableAnswer(401, auth, target)).toMatchObject({
      permanent: true,
      error: expect.stringMatching(/^Airtable refused the token \(401 AUTHENTICATION_REQUIRED\)/),
    });
    expect(readAirtableAnswer(404, '{"error":"NOT_FOUND"}', target)).toMatchObject({
      permanent: true,
      error: expect.stringContaining(`no table "Leads" in base ${BASE}`),
    });
    expect(readAirtableAnswer(403, 'not json', target).permanent).toBe(true);
    expect(
      readAirtableAnswer(422, '{"error":{"type":"INVALID_VALUE_FOR_COLUMN"}}', target),
    ).toMatchObject({ permanent: true });
    expect(readAirtableAnswer(429, '', target).permanent).toBe(false);
    expect(readAirtableAnswer(503, '<html>', target)).toEqual({
      error: 'Airtable answered 503',
      permanent: false,
    });
  });
});
