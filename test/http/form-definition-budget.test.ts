import { describe, expect, it } from 'vitest';
import {
  MAX_FIELDS_BYTES,
  MAX_OPTIONS_IN_ALL,
  MAX_PAGE_BYTES,
} from '../../src/domain/forms/form-fields';
import { readFieldDraft } from '../../src/http/forms/field-drafts';
import { applyFieldEdit } from '../../src/http/forms/field-list-edits';
import { formFieldList } from '../../src/http/forms/form-fields-schemas';
import { formPageInput } from '../../src/http/forms/form-page-schemas';
import { fieldsOfSize } from '../support/sized-fields';

// The form definition's byte budget as the shared schemas (API and builder) check it.

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

const choices = (name: string, count: number) => ({
  name,
  label: name,
  type: 'checkbox' as const,
  required: false,
  options: Array.from({ length: count }, (_, i) => `o${i}`),
});

describe('the fields budget', () => {
  it('takes a list of exactly 64 KiB and refuses one byte more, naming the budget', () => {
    expect(formFieldList.safeParse(fieldsOfSize(MAX_FIELDS_BYTES)).success).toBe(true);
    const over = formFieldList.safeParse(fieldsOfSize(MAX_FIELDS_BYTES + 1));
    expect(messages(over)).toEqual([
      `at most 65536 bytes when serialized (this list is ${MAX_FIELDS_BYTES + 1})`,
    ]);
  });

  it('measures bytes, not characters', () => {
    const fields = fieldsOfSize(MAX_FIELDS_BYTES - 200);
    // 500 two-byte characters instead of 500 one-byte ones: the same length, 500 bytes more.
    expect(fields[0]!.help).toHaveLength(500);
    fields[0]!.help = 'é'.repeat(500);
    const bytes = Buffer.byteLength(JSON.stringify(fields));
    expect(bytes).toBeGreaterThan(MAX_FIELDS_BYTES);
    expect(messages(formFieldList.safeParse(fields))).toEqual([
      `at most 65536 bytes when serialized (this list is ${bytes})`,
    ]);
  });

  it('takes 1,000 options in all and refuses 1,001', () => {
    const thousand = [...[1, 2, 3, 4, 5].map((n) => choices(`c${n}`, 200))];
    expect(thousand.flatMap((f) => f.options)).toHaveLength(MAX_OPTIONS_IN_ALL);
    expect(formFieldList.safeParse(thousand).success).toBe(true);
    const more = formFieldList.safeParse([...thousand, choices('c6', 1)]);
    expect(messages(more)).toEqual(['at most 1000 options in all (this list has 1001)']);
  });
});

describe('a builder edit of a list stored over the budget', () => {
  const draft = (label: string, options: string[]) =>
    readFieldDraft({ label, name: 'c1', type: 'checkbox', options: options.join('\n') });

  it('passes when it grows neither bytes nor options, and is refused when it grows either', () => {
    // 1,200 options: over the budget in options, within it in bytes.
    const stored = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => ({
      ...choices(`c${n}`, 150),
      label: 'L'.repeat(50),
    }));
    expect(formFieldList.safeParse(stored).success).toBe(false);
    const edit = (e: Parameters<typeof applyFieldEdit>[1]) =>
      applyFieldEdit(stored, e, { acceptFiles: false });

    expect(edit({ intent: 'down', target: 'c1' })).toMatchObject({ ok: true });
    expect(edit({ intent: 'remove', target: 'c8' })).toMatchObject({ ok: true });
    const fewer = Array.from({ length: 100 }, (_, i) => `o${i}`);
    expect(edit({ intent: 'save', target: 'c1', draft: draft('Shorter', fewer) })).toMatchObject({
      ok: true,
    });
    // One option more, though the shorter label makes the list smaller in bytes.
    const more = Array.from({ length: 151 }, (_, i) => `o${i}`);
    const bytes = (list: unknown) => Buffer.byteLength(JSON.stringify(list));
    const grownList = [{ ...stored[0]!, label: 'S', options: more }, ...stored.slice(1)];
    expect(bytes(grownList)).toBeLessThan(bytes(stored));
    const grown = edit({ intent: 'save', target: 'c1', draft: draft('S', more) });
    expect(grown).toMatchObject({
      ok: false,
      errors: {
        list: expect.stringContaining('at most 1000 options in all (this list has 1201)'),
      },
    });
  });
});

describe('the page budget', () => {
  const page = (description: string) => ({ title: 'T', description });

  it('counts the page texts together and refuses past 8 KiB', () => {
    const base = Buffer.byteLength(JSON.stringify(formPageInput.parse(page(''))));
    const missing = MAX_PAGE_BYTES - base;
    // Two-byte characters: an ASCII page within the character limits stays under 8 KiB.
    const description = 'é'.repeat(Math.floor(missing / 2)) + 'x'.repeat(missing % 2);
    const exact = formPageInput.safeParse(page(description));
    expect(exact.success).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(exact.data))).toBe(MAX_PAGE_BYTES);
    expect(formPageInput.safeParse(page(`${description}x`)).success).toBe(false);
    // 5,000 two-byte characters: within the 5,000-character limit, past the byte budget.
    const over = formPageInput.safeParse(page('é'.repeat(5000)));
    expect(messages(over)).toEqual([
      expect.stringMatching(
        /^at most 8192 bytes when serialized, its texts together \(this page is \d+\)$/,
      ),
    ]);
  });
});
