import { describe, expect, it } from 'vitest';
import { MAX_FIELDS_BYTES, MAX_PAGE_BYTES } from '../../src/domain/forms/form-fields';
import { expectAnswer, expectError } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { fieldsOfSize } from '../support/sized-fields';

// A form's definition has a byte budget (docs/form-fields.md, Limits): fields at most 64 KiB
// serialized and 1,000 options in all, the page's texts at most 8 KiB; past it 422
// validation_failed naming the budget, on create and update alike. A Form carries its
// embed snippet once.

const t = useTestStack();

const choices = (name: string, count: number) => ({
  name,
  label: name,
  type: 'checkbox' as const,
  options: Array.from({ length: count }, (_, i) => `o${i}`),
});

describe('the form definition budget', () => {
  it('refuses fields past 64 KiB on create and update, and takes a list that exactly fits', async () => {
    const over = await t.api.post('/api/forms', {
      name: 'Too big',
      fields: fieldsOfSize(MAX_FIELDS_BYTES + 1),
    });
    expect(expectError(over, 422, 'validation_failed').errors).toEqual([
      `fields: at most 65536 bytes when serialized (this list is ${MAX_FIELDS_BYTES + 1})`,
    ]);

    const exact = fieldsOfSize(MAX_FIELDS_BYTES);
    const form = await t.api.createForm({ name: 'Just fits', fields: exact });
    expect(form.fields).toEqual(exact);

    const patched = await t.api.patch(`/api/forms/${form.id}`, {
      fields: fieldsOfSize(70_000),
    });
    expect(expectError(patched, 422, 'validation_failed').errors).toEqual([
      'fields: at most 65536 bytes when serialized (this list is 70000)',
    ]);
    const stored = expectAnswer(
      await t.api.get(`/api/forms/${form.id}`),
      'GET /api/forms/{id}',
      200,
    );
    expect(stored.form.fields).toEqual(exact);
  });

  it('refuses 1,001 options in all and takes 1,000', async () => {
    const thousand = [1, 2, 3, 4, 5].map((n) => choices(`c${n}`, 200));
    const form = await t.api.createForm({ name: 'Choices', fields: thousand });
    const res = await t.api.patch(`/api/forms/${form.id}`, {
      fields: [...thousand, choices('c6', 1)],
    });
    expect(expectError(res, 422, 'validation_failed').errors).toEqual([
      'fields: at most 1000 options in all (this list has 1001)',
    ]);
  });

  it('refuses a page whose texts pass 8 KiB, and takes one that exactly fits', async () => {
    const form = await t.api.createForm({ name: 'Page' });
    const over = await t.api.patch(`/api/forms/${form.id}`, {
      page: { title: 'Welcome', description: 'é'.repeat(4000), success_message: 'ü'.repeat(200) },
    });
    const { errors } = expectError(over, 422, 'validation_failed');
    expect(errors).toEqual([
      expect.stringMatching(
        /^page: at most 8192 bytes when serialized, its texts together \(this page is \d+\)$/,
      ),
    ]);
    const created = await t.api.post('/api/forms', {
      name: 'Page at create',
      page: { title: 'Welcome', description: 'é'.repeat(5000) },
    });
    expect(expectError(created, 422, 'validation_failed').errors?.[0]).toMatch(
      /^page: at most 8192/,
    );

    const base = { title: 'Welcome', description: '' };
    const empty = expectAnswer(
      await t.api.patch(`/api/forms/${form.id}`, { page: base }),
      'PATCH /api/forms/{id}',
      200,
    ).form.page;
    const missing = MAX_PAGE_BYTES - Buffer.byteLength(JSON.stringify(empty));
    const description = 'é'.repeat(Math.floor(missing / 2)) + 'x'.repeat(missing % 2);
    const fits = await t.api.patch(`/api/forms/${form.id}`, { page: { ...base, description } });
    const page = expectAnswer(fits, 'PATCH /api/forms/{id}', 200).form.page;
    expect(Buffer.byteLength(JSON.stringify(page))).toBe(MAX_PAGE_BYTES);
  });

  it('answers a Form with its embed snippet once; examples point at embed_html', async () => {
    const form = await t.api.createForm({
      name: 'Snippet once',
      fields: [{ name: 'topic', label: 'Topic', type: 'select', options: ['<a>', '<b>'] }],
    });
    const res = await t.api.get(`/api/forms/${form.id}`);
    const { form: read } = expectAnswer(res, 'GET /api/forms/{id}', 200);
    expect(read.embed_html).toContain('<form ');
    expect(read.examples.html).toBe('see embed_html');
    for (const value of Object.values(read.examples)) expect(typeof value).toBe('string');
    // `form` and `payload` carry the same Form, so the markup is there twice, and no more.
    expect(res.text.split('<form ').length - 1).toBe(2);
    const body = JSON.parse(res.text) as { form: unknown };
    const once = JSON.stringify(body.form);
    expect(once.split('<form ').length - 1).toBe(1);
    expect(once.split(JSON.stringify(read.embed_html).slice(1, -1)).length - 1).toBe(1);
  });
});
