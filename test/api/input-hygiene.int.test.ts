import { afterEach, describe, expect, it, vi } from 'vitest';
import { expectAnswer, expectError, expectValidationError } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { postJson, submitJson } from '../support/ingest-requests';
import { countSubmissions, onlySubmission } from '../support/stored-submissions';

// Hostile input is a 422 naming what to fix, never a 500 with an error log line
// (docs/api-conventions.md, Limits).
const t = useTestStack();

afterEach(() => vi.restoreAllMocks());

/** A JSON text of `depth` arrays one inside the other around a number. */
const nestedArrays = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

describe('deeply nested JSON on /json/{token}', () => {
  it('a field nested 50,000 levels deep is 422 validation_failed naming it; no 500, no error log', async () => {
    const form = await t.api.createForm();
    const logged = vi.spyOn(t.stack.ctx.logger, 'error');
    const res = await postJson(
      form.json_url,
      `{"email":"ada@example.com","deep":${nestedArrays(50_000)}}`,
    );
    expectValidationError(res, 'deep');
    expect(expectError(res, 422, 'validation_failed').errors?.join(' ')).toMatch(/32 levels/);
    expect(await countSubmissions(t.stack, form.id)).toBe(0);
    const deepObject = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
    expectValidationError(await postJson(form.json_url, `{"deep":${deepObject}}`), 'deep');
    expect(logged).not.toHaveBeenCalled();
  });

  it('a field nested exactly 32 levels is stored as sent', async () => {
    const form = await t.api.createForm();
    await submitJson(form, { nested: JSON.parse(nestedArrays(32)) });
    const stored = await onlySubmission(t.stack, form.id);
    expect(JSON.stringify(stored.payload_json.nested)).toBe(nestedArrays(32));
    expectValidationError(
      await postJson(form.json_url, `{"nested":${nestedArrays(33)}}`),
      'nested',
    );
  });
});

describe('malformed list cursors', () => {
  const cursor = (text: string) => Buffer.from(text).toString('base64url');

  it.each([
    ['20-digit microseconds', cursor('2.12345678901234567890.5')],
    ['negative microseconds', cursor('2.-99999999999999999999.5')],
    ['slightly negative microseconds', cursor('2.-1.5')],
    ['a 19-digit id past bigint', cursor('2.1700000000000000.9999999999999999999')],
    ['microseconds past the year 9999', cursor('2.999999999999999999.5')],
    ['page past the page limit', cursor('9999999.1700000000000000.5')],
    ['non-numeric', cursor('two.now.five')],
    ['not base64url', '%%%'],
  ])('%s → 422 validation_failed naming cursor; no 500, no error log', async (_what, bad) => {
    const logged = vi.spyOn(t.stack.ctx.logger, 'error');
    for (const path of ['/api/submissions', '/api/submissions/spam']) {
      const res = await t.api.get(`${path}?range=all&cursor=${encodeURIComponent(bad)}`);
      expectValidationError(res, 'cursor');
    }
    expect(logged).not.toHaveBeenCalled();
  });

  it('a cursor this API issued still works', async () => {
    const form = await t.api.createForm();
    for (let i = 0; i < 3; i++) await submitJson(form, { n: String(i) });
    const issued = cursor(`2.${Date.now() * 1000}.999999999999999999`);
    const res = await t.api.get(`/api/submissions?form_id=${form.id}&range=all&cursor=${issued}`);
    expect(expectAnswer(res, 'GET /api/submissions', 200).submissions).toHaveLength(3);
  });
});
