import { describe, expect, it } from 'vitest';
import type { FormField } from '../../src/domain/forms/form-fields';
import { validateFields, type FieldRules } from '../../src/domain/forms/validate-fields';
import type { UploadedFile } from '../../src/domain/submissions/store-submission';
import { fieldErrorsIn } from '../../src/http/ingest/field-problem-text';
import { Readable } from 'node:stream';

const field = (f: Partial<FormField> & Pick<FormField, 'name' | 'type'>): FormField => ({
  label: f.name,
  required: false,
  ...f,
});

const file = (fieldName: string, filename: string, contentType: string): UploadedFile => ({
  fieldName,
  filename,
  contentType,
  size: 3,
  open: () => Readable.from(Buffer.from('abc')),
});

const rules = (fields: FormField[], unknownFields: FieldRules['unknownFields'] = 'keep') => ({
  fields,
  unknownFields,
});

const errorsOf = (r: FieldRules, payload: Record<string, unknown>, files: UploadedFile[] = []) => {
  const result = validateFields(r, payload, files);
  // The problems as the API words them in English (src/http/ingest/field-problem-text.ts).
  return result.ok ? {} : fieldErrorsIn(result.fieldProblems, 'en');
};

describe('validateFields', () => {
  it('refuses a missing or blank required answer and leaves out an empty optional one', () => {
    const r = rules([
      field({ name: 'name', type: 'text', required: true }),
      field({ name: 'city', type: 'text' }),
    ]);
    expect(errorsOf(r, { name: '   ' })).toEqual({ name: 'is required' });
    expect(validateFields(r, { name: 'Ada', city: '' }, [])).toEqual({
      ok: true,
      payload: { name: 'Ada' },
      files: [],
    });
  });

  it('checks e-mail syntax, http(s) URLs, real dates and max_length in characters', () => {
    const r = rules([
      field({ name: 'email', type: 'email' }),
      field({ name: 'site', type: 'url' }),
      field({ name: 'day', type: 'date' }),
      field({ name: 'nick', type: 'text', max_length: 3 }),
    ]);
    expect(
      errorsOf(r, { email: 'nope', site: 'javascript:alert(1)', day: '2026-02-30', nick: 'abcd' }),
    ).toEqual({
      email: 'must be a valid e-mail address',
      site: 'must be an http:// or https:// URL',
      day: 'must be a date as YYYY-MM-DD',
      nick: 'must be at most 3 characters',
    });
    // Four characters of more than one UTF-16 unit each are still four characters.
    expect(
      errorsOf(rules([field({ name: 'nick', type: 'text', max_length: 4 })]), { nick: '😀😀😀😀' }),
    ).toEqual({});
    const ok = validateFields(
      r,
      { email: ' ada@example.com ', site: 'https://a.example', day: '2024-02-29', nick: 'abc' },
      [],
    );
    expect(ok.ok && ok.payload).toEqual({
      email: 'ada@example.com',
      site: 'https://a.example',
      day: '2024-02-29',
      nick: 'abc',
    });
  });

  it('stores numbers as numbers within min and max, from form text or JSON', () => {
    const r = rules([field({ name: 'seats', type: 'number', min: 1, max: 10 })]);
    expect(errorsOf(r, { seats: 'many' })).toEqual({ seats: 'must be a number' });
    expect(errorsOf(r, { seats: '0' })).toEqual({ seats: 'must be at least 1' });
    expect(errorsOf(r, { seats: 11 })).toEqual({ seats: 'must be at most 10' });
    const ok = validateFields(r, { seats: ' 2.5 ' }, []);
    expect(ok.ok && ok.payload).toEqual({ seats: 2.5 });
  });

  it('takes choices only among the options, one unless the field takes many', () => {
    const r = rules([
      field({ name: 'plan', type: 'radio', options: ['Free', 'Pro'] }),
      field({ name: 'topics', type: 'checkbox', options: ['Billing', 'Bugs'] }),
      field({ name: 'langs', type: 'select', options: ['en', 'fr'], multiple: true }),
      field({ name: 'size', type: 'select', options: ['S', 'M'] }),
    ]);
    expect(
      errorsOf(r, { plan: 'Enterprise', topics: ['Bugs', 'Other'], size: ['S', 'M'] }),
    ).toEqual({
      plan: 'must be one of the options (got "Enterprise")',
      topics: 'must be one of the options (got "Other")',
      size: 'takes one value',
    });
    const ok = validateFields(
      r,
      { plan: 'Pro', topics: 'Bugs', langs: ['en', 'fr'], size: 'M' },
      [],
    );
    expect(ok.ok && ok.payload).toEqual({
      plan: 'Pro',
      topics: ['Bugs'],
      langs: ['en', 'fr'],
      size: 'M',
    });
  });

  it('reads a single checkbox as true or false, and a required one must be checked', () => {
    const r = rules([
      field({ name: 'terms', type: 'checkbox', required: true }),
      field({ name: 'news', type: 'checkbox' }),
    ]);
    expect(errorsOf(r, {})).toEqual({ terms: 'must be checked' });
    expect(errorsOf(r, { terms: 'false' })).toEqual({ terms: 'must be checked' });
    const ok = validateFields(r, { terms: 'on' }, []);
    expect(ok.ok && ok.payload).toEqual({ terms: true, news: false });
  });

  it('checks files against required, multiple and accept (types and extensions)', () => {
    const r = rules([
      field({ name: 'cv', type: 'file', required: true, accept: ['.pdf', 'image/*'] }),
      field({ name: 'note', type: 'text' }),
    ]);
    expect(errorsOf(r, {})).toEqual({ cv: 'is required' });
    expect(errorsOf(r, {}, [file('cv', 'cv.exe', 'application/octet-stream')])).toEqual({
      cv: '"cv.exe" is not an accepted type (.pdf, image/*)',
    });
    expect(
      errorsOf(r, {}, [file('cv', 'a.pdf', 'application/pdf'), file('cv', 'b.png', 'image/png')]),
    ).toEqual({
      cv: 'takes one file',
    });
    expect(errorsOf(r, { cv: 'a.pdf' }, [file('cv', 'a.pdf', 'application/pdf')])).toEqual({
      cv: 'must be sent as a file',
    });
    expect(
      errorsOf(r, {}, [
        file('cv', 'A.PDF', 'application/pdf'),
        file('note', 'x.txt', 'text/plain'),
      ]),
    ).toEqual({
      note: 'must not be a file',
    });
    expect(validateFields(r, {}, [file('cv', 'photo.JPG', 'image/jpeg')]).ok).toBe(true);
  });

  it('keeps, drops or refuses names outside the list', () => {
    const fields = [field({ name: 'name', type: 'text' })];
    const payload = { name: 'Ada', extra: 'x' };
    const extraFile = [file('extra_file', 'a.txt', 'text/plain')];
    const kept = validateFields(rules(fields, 'keep'), payload, extraFile);
    expect(kept.ok && [kept.payload, kept.files.length]).toEqual([payload, 1]);
    const dropped = validateFields(rules(fields, 'drop'), payload, extraFile);
    expect(dropped.ok && [dropped.payload, dropped.files.length]).toEqual([{ name: 'Ada' }, 0]);
    expect(errorsOf(rules(fields, 'reject'), payload, extraFile)).toEqual({
      extra: 'is not a field of this form',
      extra_file: 'is not a field of this form',
    });
  });

  it('refuses objects where text is expected, and reports every field at once', () => {
    const r = rules([
      field({ name: 'name', type: 'text', required: true }),
      field({ name: 'email', type: 'email', required: true }),
    ]);
    expect(errorsOf(r, { name: { first: 'Ada' } })).toEqual({
      name: 'must be text',
      email: 'is required',
    });
  });
});
