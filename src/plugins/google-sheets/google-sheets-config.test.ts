import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { googleSheetsType } from './declaration';
import { columnLetters, headerCellRange, headerRowRange, spreadsheetIdOf } from './a1-notation';
import { alignedRow, cellValue, columnNames, missingColumns } from './sheet-rows';

const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
const keyFile = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: 'service_account',
    client_email: 'bot@project.iam.gserviceaccount.com',
    private_key: pem,
    private_key_id: 'abc123',
    ...extra,
  });
const check = (raw: Record<string, unknown>) =>
  googleSheetsType.check(raw, { allowList: { allows: () => false } } as never);
const ID = '1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms';

describe('the google_sheets config check', () => {
  it('keeps the key, its client_email beside it, the id from a pasted address and Sheet1', async () => {
    const result = await check({
      service_account_key: keyFile({ project_id: 'p' }),
      spreadsheet_id: `https://docs.google.com/spreadsheets/d/${ID}/edit#gid=0`,
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config).toMatchObject({
      client_email: 'bot@project.iam.gserviceaccount.com',
      spreadsheet_id: ID,
      sheet_name: 'Sheet1',
    });
    expect(JSON.parse(String(result.config.service_account_key))).toEqual({
      type: 'service_account',
      client_email: 'bot@project.iam.gserviceaccount.com',
      private_key: pem,
      private_key_id: 'abc123',
    });
  });

  it.each([
    ['{"type": "service_account", "private_key": "', 'is not valid JSON'],
    [JSON.stringify({ type: 'authorized_user' }), '"type" must be "service_account"'],
    [keyFile({ client_email: 'nope' }), 'no valid "client_email"'],
    [keyFile({ private_key: 'abc' }), 'no "private_key" in PEM form'],
    [
      keyFile({ private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----' }),
      'not a readable RSA key',
    ],
    [keyFile({ token_uri: 'http://evil.example/token' }), '"token_uri" that is not an https URL'],
  ])('refuses a bad key with a field error that quotes none of it (%#)', async (text, problem) => {
    const result = await check({ service_account_key: text, spreadsheet_id: ID });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatch(/^service_account_key: /);
    expect(result.errors[0]).toContain(problem);
    expect(result.errors[0]).not.toContain(pem.split('\n')[1]);
    expect(result.errors[0]).not.toContain('AAAA');
  });

  it('refuses a spreadsheet that is no id and sheet names that would break a range', async () => {
    const result = await check({
      service_account_key: keyFile(),
      spreadsheet_id: 'https://evil.example/spreadsheets/d/../../x',
      sheet_name: 'a]b',
    });
    expect(result.ok ? [] : result.errors).toEqual([
      'spreadsheet_id: must be a spreadsheet id or its address (https://docs.google.com/spreadsheets/d/…)',
      'sheet_name: must not contain [ ] * ? / \\ : or control characters',
    ]);
    for (const name of ['x'.repeat(101), ' padded', 'new\nline']) {
      const bad = await check({
        service_account_key: keyFile(),
        spreadsheet_id: ID,
        sheet_name: name,
      });
      expect(bad.ok).toBe(false);
    }
    expect(spreadsheetIdOf(`${ID}/edit`)).toBeNull();
    expect(spreadsheetIdOf(` ${ID} `)).toBe(ID);
  });

  it('masks the key for managers and keeps only the address and sheet for viewers', () => {
    const summary = googleSheetsType.summary({
      client_email: 'bot@p.iam.gserviceaccount.com',
      spreadsheet_id: ID,
      sheet_name: "It's",
    });
    expect(summary).toBe(`sheet "It's" of spreadsheet ${ID}, as bot@p.iam.gserviceaccount.com`);
    expect(googleSheetsType.sealed).toEqual(['service_account_key']);
    expect(googleSheetsType.redacted.keep).not.toContain('service_account_key');
  });
});

describe('A1 ranges', () => {
  it('quotes the sheet name, doubling quotes, so nothing in it changes the range', () => {
    expect(headerRowRange('Sheet1')).toBe("'Sheet1'!1:1");
    expect(headerRowRange("Bob's sheet!A1")).toBe("'Bob''s sheet!A1'!1:1");
    expect(headerCellRange("'", 28)).toBe("''''!AB1");
  });

  it('numbers columns A to Z, then AA, up to three letters', () => {
    expect([1, 26, 27, 52, 53, 702, 703, 18278].map(columnLetters)).toEqual([
      'A',
      'Z',
      'AA',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
      'ZZZ',
    ]);
    expect(() => columnLetters(0)).toThrow(RangeError);
  });
});

describe('rows aligned to the header', () => {
  const at = new Date('2026-01-02T03:04:05.000Z');

  const known = ['a', 'b', 'c', 'd', 'submission_id'];

  it('puts each field under its column, empty where it has none, new ones only at the end', () => {
    expect(missingColumns([], { b: 1, a: 2 }, known)).toEqual([
      'submission_id',
      'received_at',
      'b',
      'a',
    ]);
    expect(missingColumns(['submission_id'], {}, known)).toEqual(['received_at']);
    const header = ['submission_id', 'received_at', 'a', 'b', 'c'];
    expect(missingColumns(header, { c: 1, d: 2, a: 3 }, known)).toEqual(['d']);
    expect(
      alignedRow(header, { id: '7', receivedAt: at, payload: { c: 'C', a: 'A' } }, known),
    ).toEqual(['7', '2026-01-02T03:04:05.000Z', 'A', '', 'C']);
  });

  it('other names get no column of their own: one `extra` column holds them as JSON', () => {
    const header = ['submission_id', 'received_at', 'a', 'old'];
    const payload = { a: 'A', old: 'O', z: 'Z', extra: 'E' };
    // `old` is in the sheet already; `z` and a field named `extra` are not known.
    expect(missingColumns(header, payload, known)).toEqual(['extra']);
    expect(alignedRow([...header, 'extra'], { id: '8', receivedAt: at, payload }, known)).toEqual([
      '8',
      '2026-01-02T03:04:05.000Z',
      'A',
      'O',
      '{"z":"Z","extra":"E"}',
    ]);
    expect(missingColumns([...header, 'extra'], payload, known)).toEqual([]);
    expect(columnNames(null, null)).toEqual(['email', 'name', 'message']);
    expect(columnNames(null, ['x', 'extra'])).toEqual(['x']);
    expect(columnNames(['f'], null)).toEqual(['f']);
    expect(columnNames(['f'], ['x'])).toEqual(['x']);
  });

  it('a field named like a leading column gets its own column', () => {
    const header = ['submission_id', 'received_at', 'submission_id'];
    expect(missingColumns(header, { submission_id: 'mine' }, known)).toEqual([]);
    expect(
      alignedRow(header, { id: '9', receivedAt: at, payload: { submission_id: 'mine' } }, known),
    ).toEqual(['9', '2026-01-02T03:04:05.000Z', 'mine']);
  });

  it('writes lists joined, objects as JSON, keeps numbers, and cuts long text', () => {
    expect(cellValue(['a', 'b'])).toBe('a, b');
    expect(cellValue({ name: 'f.pdf' })).toBe('{"name":"f.pdf"}');
    expect(cellValue(3)).toBe(3);
    expect(cellValue(null)).toBe('');
    expect(String(cellValue('x'.repeat(60_000))).length).toBe(50_000);
    expect(cellValue('=HYPERLINK("x")')).toBe('=HYPERLINK("x")');
  });
});
