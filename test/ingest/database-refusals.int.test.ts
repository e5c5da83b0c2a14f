import { afterEach, describe, expect, it, vi } from 'vitest';
import { expectError } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { postForm, postJson } from '../support/ingest-requests';
import { countSubmissions } from '../support/stored-submissions';

// What PostgreSQL refuses must not become a 500 that logs the submitter's data
// (docs/api-conventions.md, Limits).
const t = useTestStack();

afterEach(() => vi.restoreAllMocks());

/** `count` distinct lower-case words of four letters, space-separated. */
function distinctWords(count: number, from = 0): string {
  const words: string[] = [];
  for (let n = from; n < from + count; n++) {
    let word = '';
    for (let i = 0, rest = n; i < 4; i++, rest = Math.floor(rest / 26))
      word += String.fromCharCode(97 + (rest % 26));
    words.push(word);
  }
  return words.join(' ');
}

describe('database refusals', () => {
  it('a payload whose search index would pass its limit is 413, not 500', async () => {
    const form = await t.api.createForm();
    // About 1 MB of fields: 200,000 distinct words index to more than tsvector's 1 MiB.
    const fields = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [`f${i}`, distinctWords(20_000, i * 20_000)]),
    );
    const res = await postJson(form.json_url, fields);
    const body = expectError(res, 413, 'payload_too_large');
    expect(body.message).toMatch(/words/);
    expect(await countSubmissions(t.stack, form.id)).toBe(0);
  });

  it.each([
    ['a value', '{"a":"\\ud800"}', 'a'],
    ['a name', '{"b\\udc00":"x"}', 'b\ufffd'],
    ['a deep name', '{"c":{"deep":[{"k\\ud83d":1}]}}', 'c'],
  ])(
    'a lone surrogate in %s is 422 invalid_payload naming the field, not 500',
    async (_where, body, field) => {
      const form = await t.api.createForm();
      const refused = expectError(await postJson(form.json_url, body), 422, 'invalid_payload');
      expect(refused.errors).toEqual([
        `${field}: must be well-formed Unicode (it holds a lone surrogate)`,
      ]);
      expect(await countSubmissions(t.stack, form.id)).toBe(0);
      // A whole surrogate pair is well-formed: stored.
      expect((await postJson(form.json_url, '{"a":"\\ud83d\\ude00"}')).status).toBe(200);
    },
  );

  it('a form body in UTF-16 with a lone surrogate is 422 invalid_payload on /f', async () => {
    const form = await t.api.createForm();
    // busboy decodes a declared utf-16le charset as is, lone halves included.
    const utf16 = (text: string) =>
      [...Buffer.from(text, 'utf16le')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`);
    const body = `${utf16('a').join('')}=${utf16('x\ud800').join('')}`;
    const res = await postForm(form.submission_url, body, {
      'content-type': 'application/x-www-form-urlencoded; charset=utf-16le',
      Accept: 'application/json',
    });
    const refused = expectError(res, 422, 'invalid_payload');
    expect(refused.errors).toEqual(['a: must be well-formed Unicode (it holds a lone surrogate)']);
    expect(await countSubmissions(t.stack, form.id)).toBe(0);
  });

  it('an unexpected database error is logged without the values of the statement', async () => {
    const form = await t.api.createForm();
    await t.stack.sql(`
      create function refuse_marker() returns trigger language plpgsql as $$
      begin
        if new.payload_json ? 'secret' then raise exception 'refused by a test trigger'; end if;
        return new;
      end $$;
      create trigger refuse_marker before insert on submissions
        for each row execute function refuse_marker();`);
    const logged = vi.spyOn(t.stack.ctx.logger, 'error');
    const marker = 'sensitive-value-4f1c9e';
    const res = await postJson(form.json_url, { secret: marker, email: 'ada@example.com' });
    expectError(res, 500, 'internal_error');
    expect(logged).toHaveBeenCalled();
    const text = JSON.stringify(logged.mock.calls, (_key, value: unknown) =>
      value instanceof Error ? { ...value, message: value.message, stack: value.stack } : value,
    );
    expect(text).toContain('refused by a test trigger');
    expect(text).not.toContain(marker);
    expect(text).not.toContain('ada@example.com');
  });
});
