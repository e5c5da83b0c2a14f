import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { Form } from '../../src/db/entities/form';
import { createPlugin } from '../../src/plugins/manage/create-plugin';
import { request } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { startFakeGoogle, type FakeGoogle } from '../support/fake-google';
import { submitJson } from '../support/ingest-requests';
import { FAST_DELIVERY_ENV, waitForAttempts } from '../support/delivery-attempts';

// Google Sheets plugins end to end: real ingest, a real worker, and a fake Google (token
// endpoint and Sheets API v4) on 127.0.0.1 over the test CA (docs/plugins.md).

let google: FakeGoogle;

beforeAll(async () => {
  google = await startFakeGoogle(inject('stack').certificates, { latencyMs: 60 });
});

const t = useTestStack(() => ({ worker: true, env: { ...FAST_DELIVERY_ENV, ...google.env } }));

afterAll(async () => {
  await google?.close();
});

let sequence = 0;

/** A form with a Google Sheets plugin on a new spreadsheet shared with a new account. */
async function sheetForm(options: { shared?: boolean; fields?: string[] } = {}) {
  sequence++;
  const email = `formward-${sequence}@test-project.iam.gserviceaccount.com`;
  const key = google.addServiceAccount(email);
  const spreadsheetId = `spreadsheet-${sequence}-${Date.now()}`;
  google.addSpreadsheet(spreadsheetId, options.shared === false ? [] : [email]);
  const view = await t.api.createForm({
    name: `Sheets ${sequence}`,
    ...(options.fields && {
      fields: options.fields.map((name) => ({ name, label: name, type: 'text' })),
    }),
  });
  const em = t.stack.ctx.orm.em.fork();
  const form = await em.findOneOrFail(Form, view.id);
  const { plugin } = await createPlugin(em, t.stack.ctx, form, {
    type: 'google_sheets',
    config: {
      service_account_key: key.json,
      spreadsheet_id: `https://docs.google.com/spreadsheets/d/${spreadsheetId}/edit#gid=0`,
    },
  });
  return { form: view, plugin, spreadsheetId, email, key };
}

const rowsOf = (id: string) => google.rows(id);
const sheetsRequests = (id: string) => google.requests.filter((r) => r.path.includes(id));

describe('Google Sheets plugin', () => {
  it('writes the header, then one RAW row per submission, formulas kept as text', async () => {
    const { form, spreadsheetId } = await sheetForm({ fields: ['name', 'formula', 'count'] });
    const first = await submitJson(form, {
      name: 'Ada',
      formula: '=HYPERLINK("https://evil.example","x")',
    });
    expect(await waitForAttempts(t.stack, first, 1)).toEqual([
      expect.objectContaining({ status: 'succeeded', http_status: 200 }),
    ]);
    const second = await submitJson(form, { name: 'Grace', count: '3' });
    await waitForAttempts(t.stack, second, 1);
    const [header, row1, row2] = rowsOf(spreadsheetId);
    expect(header).toEqual(['submission_id', 'received_at', 'name', 'formula', 'count']);
    expect(row1).toEqual([
      first,
      expect.any(String),
      'Ada',
      '=HYPERLINK("https://evil.example","x")',
    ]);
    expect(row2).toEqual([second, expect.any(String), 'Grace', '', '3']);
    const append = sheetsRequests(spreadsheetId).find((r) => r.path.includes(':append'))!;
    expect(append.method).toBe('POST');
    expect(append.path).toContain('valueInputOption=RAW');
    expect(append.path).toContain('insertDataOption=INSERT_ROWS');
    expect(append.headers.authorization).toMatch(/^Bearer ya29\.fake-/);
  });

  it('a new field adds a column at the end, widening the sheet past 26 columns', async () => {
    const names = Array.from({ length: 30 }, (_, i) => `f${i}`);
    const { form, spreadsheetId } = await sheetForm({ fields: ['a', ...names] });
    await waitForAttempts(t.stack, await submitJson(form, { a: '1' }), 1);
    const wide = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, `v${i}`]));
    const id = await submitJson(form, { ...wide, a: '2' });
    expect((await waitForAttempts(t.stack, id, 1))[0]!.status).toBe('succeeded');
    const [header, , row] = rowsOf(spreadsheetId);
    expect(header!.slice(0, 4)).toEqual(['submission_id', 'received_at', 'a', 'f0']);
    expect(header).toHaveLength(33);
    expect(row![header!.indexOf('a')]).toBe('2');
    expect(row![header!.indexOf('f29')]).toBe('v29');
  });

  it('concurrent submissions adding different fields keep every column aligned', async () => {
    const { form, spreadsheetId } = await sheetForm({
      fields: ['shared', 'alpha', 'beta', 'gamma', 'delta', 'epsilon'],
    });
    const ids = await Promise.all(
      ['alpha', 'beta', 'gamma', 'delta', 'epsilon'].map((field) =>
        submitJson(form, { shared: 'x', [field]: `${field}-value` }),
      ),
    );
    for (const id of ids)
      expect((await waitForAttempts(t.stack, id, 1))[0]!.status).toBe('succeeded');
    const [header, ...rows] = rowsOf(spreadsheetId);
    expect([...header!].sort()).toEqual(
      [
        'submission_id',
        'received_at',
        'shared',
        'alpha',
        'beta',
        'gamma',
        'delta',
        'epsilon',
      ].sort(),
    );
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      const field = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'].find(
        (name) => row[header!.indexOf(name)] === `${name}-value`,
      );
      expect(field).toBeDefined();
      expect(row[header!.indexOf('shared')]).toBe('x');
      expect(row.filter((cell) => String(cell).endsWith('-value'))).toHaveLength(1);
    }
  });

  it("a submitter's other names add no column: they share one `extra` column as JSON", async () => {
    const { form, spreadsheetId } = await sheetForm({ fields: ['name', 'email'] });
    const unknown = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`x${i}`, `v${i}`]));
    const id = await submitJson(form, { name: 'Ada', ...unknown });
    expect((await waitForAttempts(t.stack, id, 1))[0]!.status).toBe('succeeded');
    const again = await submitJson(form, { name: 'Grace', email: 'g@example.com', y: 'why' });
    await waitForAttempts(t.stack, again, 1);
    const [header, row, row2] = rowsOf(spreadsheetId);
    expect(header).toEqual(['submission_id', 'received_at', 'name', 'extra', 'email']);
    expect(row).toEqual([id, expect.any(String), 'Ada', JSON.stringify(unknown)]);
    expect(row2).toEqual([again, expect.any(String), 'Grace', '{"y":"why"}', 'g@example.com']);
  });

  it('a free-form form gets columns for email, name and message only, the rest in `extra`', async () => {
    const { form, spreadsheetId } = await sheetForm();
    const id = await submitJson(form, { message: 'Hi', phone: '123', company: 'ACME' });
    expect((await waitForAttempts(t.stack, id, 1))[0]!.status).toBe('succeeded');
    const [header, row] = rowsOf(spreadsheetId);
    expect(header).toEqual(['submission_id', 'received_at', 'message', 'extra']);
    expect(row).toEqual([id, expect.any(String), 'Hi', '{"phone":"123","company":"ACME"}']);
  });

  it('a 429 with Retry-After is retried after it, under the same delivery id', async () => {
    const { form, spreadsheetId } = await sheetForm();
    await waitForAttempts(t.stack, await submitJson(form, { a: '1' }), 1);
    google.failSheets({
      ...google.sheetsError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded'),
      headers: { 'retry-after': '2' },
    });
    const started = Date.now();
    const id = await submitJson(form, { a: '2' });
    const attempts = await waitForAttempts(t.stack, id, 2);
    expect(attempts.map((a) => [a.attempt, a.status, a.http_status])).toEqual([
      [1, 'pending_retry', 429],
      [2, 'succeeded', 200],
    ]);
    expect(attempts[0]!.error).toContain("Google Sheets' quota was exceeded (429)");
    expect(new Set(attempts.map((a) => a.delivery_id)).size).toBe(1);
    const calls = sheetsRequests(spreadsheetId).filter((r) => r.at >= started);
    expect(calls.at(-1)!.at - calls[0]!.at).toBeGreaterThanOrEqual(1_900);
    expect(rowsOf(spreadsheetId)).toHaveLength(3);
  });

  it('a sheet not shared with the account fails at once with a readable error', async () => {
    const { form, email } = await sheetForm({ shared: false });
    const id = await submitJson(form, { a: '1' });
    const attempts = await waitForAttempts(t.stack, id, 1);
    expect(attempts).toEqual([expect.objectContaining({ status: 'failed', http_status: 403 })]);
    expect(attempts[0]!.error).toContain(`is not shared with ${email}`);
  });

  it('caches the token per plugin; a 401 drops it and the retry gets a new one', async () => {
    const { form, email, spreadsheetId } = await sheetForm();
    const claimsOf = (body: string) =>
      JSON.parse(
        Buffer.from(
          new URLSearchParams(body).get('assertion')!.split('.')[1]!,
          'base64url',
        ).toString(),
      ) as Record<string, unknown>;
    const issuedTo = () =>
      google.tokenRequests().filter((r) => claimsOf(r.body).iss === email).length;
    for (const value of ['1', '2', '3'])
      await waitForAttempts(t.stack, await submitJson(form, { a: value }), 1);
    expect(issuedTo()).toBe(1);
    const claims = claimsOf(
      google.tokenRequests().find((r) => claimsOf(r.body).iss === email)!.body,
    );
    // The account itself: no `sub`, which would ask for domain-wide delegation.
    expect(claims).toEqual({
      iss: email,
      scope: 'https://www.googleapis.com/auth/spreadsheets',
      aud: 'https://oauth2.googleapis.com/token',
      iat: expect.any(Number),
      exp: (claims.iat as number) + 3600,
    });
    google.revokeTokens();
    const id = await submitJson(form, { a: '4' });
    const attempts = await waitForAttempts(t.stack, id, 2);
    expect(attempts.map((a) => [a.status, a.http_status])).toEqual([
      ['pending_retry', 401],
      ['succeeded', 200],
    ]);
    expect(issuedTo()).toBe(2);
    expect(rowsOf(spreadsheetId)).toHaveLength(5);
  });

  it('a refused key is a failed delivery; no key or token in the log, the API or the page', async () => {
    const { form, plugin, key, email } = await sheetForm();
    google.failToken({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' },
    });
    const id = await submitJson(form, { a: '1' });
    const [attempt] = await waitForAttempts(t.stack, id, 1);
    expect(attempt).toMatchObject({ status: 'failed', http_status: 400, response_body: null });
    expect(attempt!.error).toBe(
      `Google refused the service-account key of ${email} (invalid_grant: Invalid JWT Signature.); the key may have been deleted or disabled`,
    );
    const ok = await submitJson(form, { a: '2' });
    await waitForAttempts(t.stack, ok, 1);
    const secrets = [
      key.file.private_key.split('\n')[1]!,
      ...google.requests
        .map((r) => /^Bearer (.+)$/.exec(String(r.headers.authorization ?? ''))?.[1])
        .filter(Boolean),
    ] as string[];
    const stored = JSON.stringify(
      await t.stack.sql('select error, response_body from delivery_attempts where plugin_id = ?', [
        plugin.id,
      ]),
    );
    const [row] = await t.stack.sql<{ config: string }>(
      'select config::text from plugins where id = ?',
      [plugin.id],
    );
    const answer = await request('GET', `${t.stack.url}/api/forms/${form.id}/plugins`, {
      key: t.adminKey,
    });
    expect(answer.text).toContain(email);
    for (const secret of secrets) {
      expect(stored).not.toContain(secret);
      expect(row!.config).not.toContain(secret);
      expect(answer.text).not.toContain(secret);
    }
  });
});
