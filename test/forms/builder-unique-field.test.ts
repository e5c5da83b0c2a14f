import { describe, expect, it } from 'vitest';
import { applyFieldEdit } from '../../src/http/forms/field-list-edits';
import { readFieldDraft } from '../../src/http/forms/field-drafts';
import type { FormField } from '../../src/domain/forms/form-fields';
import type { FormLimits } from '../../src/domain/forms/form-limits';

const stored: FormField[] = [
  { name: 'email', label: 'E-mail', type: 'email', required: true },
  { name: 'note', label: 'Note', type: 'text', required: false },
];
const limits: FormLimits = {
  max_submissions: null,
  opens_at: null,
  closes_at: null,
  unique_field: 'email',
  closed_message: null,
};
const form = { acceptFiles: false, limits };

describe('the builder and the unique field of the form limits', () => {
  it('refuses to remove the unique field, naming where to change it', () => {
    const result = applyFieldEdit(stored, { intent: 'remove', target: 'email' }, form);
    expect(result).toEqual({
      ok: false,
      errors: { list: expect.stringContaining("“email” is the form's unique field") },
    });
  });

  it('refuses to rename the unique field', () => {
    const draft = readFieldDraft({ name: 'mail', label: 'E-mail', type: 'email', required: 'on' });
    const result = applyFieldEdit(stored, { intent: 'save', target: 'email', draft }, form);
    expect(result).toMatchObject({
      ok: false,
      errors: { list: expect.stringContaining('Limits') },
    });
  });

  it('lets every other edit through, and the unique field go once the limits name none', () => {
    expect(applyFieldEdit(stored, { intent: 'remove', target: 'note' }, form)).toMatchObject({
      ok: true,
      fields: [stored[0]],
    });
    const relabel = readFieldDraft({ name: 'email', label: 'Your e-mail', type: 'email' });
    expect(
      applyFieldEdit(stored, { intent: 'save', target: 'email', draft: relabel }, form),
    ).toMatchObject({ ok: true });
    const ungated = { acceptFiles: false, limits: { ...limits, unique_field: null } };
    expect(applyFieldEdit(stored, { intent: 'remove', target: 'email' }, ungated)).toMatchObject({
      ok: true,
    });
  });
});
