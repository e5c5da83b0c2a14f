import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { FormField } from '../../src/domain/forms/form-fields';
import { formJsonSchema } from '../../src/domain/forms/form-json-schema';
import { samplePayload } from '../../src/domain/forms/sample-payload';
import { validateFields } from '../../src/domain/forms/validate-fields';

const FIELDS: FormField[] = [
  { name: 'name', label: 'Name', type: 'text', required: true, max_length: 40 },
  { name: 'email', label: 'E-mail', type: 'email', required: true },
  { name: 'about', label: 'About', type: 'textarea', required: false },
  { name: 'seats', label: 'Seats', type: 'number', required: false, min: 1, max: 9 },
  { name: 'phone', label: 'Phone', type: 'tel', required: false },
  { name: 'site', label: 'Site', type: 'url', required: false },
  { name: 'day', label: 'Day', type: 'date', required: false },
  { name: 'size', label: 'Size', type: 'select', required: false, options: ['S', 'M'] },
  {
    name: 'langs',
    label: 'Languages',
    type: 'select',
    required: false,
    options: ['en', 'fr'],
    multiple: true,
  },
  { name: 'plan', label: 'Plan', type: 'radio', required: true, options: ['Free', 'Pro'] },
  { name: 'topics', label: 'Topics', type: 'checkbox', required: false, options: ['A', 'B'] },
  { name: 'terms', label: 'I agree', type: 'checkbox', required: true },
  { name: 'cv', label: 'CV', type: 'file', required: false, accept: ['.pdf'] },
  { name: 'campaign', label: 'Campaign', type: 'hidden', required: false },
];

const compile = (schema: object) => {
  // strict: an unknown keyword or a malformed schema throws here, so the test checks the schema too.
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema);
};

const VALID = {
  name: 'Ada',
  email: 'ada@example.com',
  about: 'Hello',
  seats: 3,
  phone: '+44 20 7946 0000',
  site: 'https://example.com/a?b=c',
  day: '2026-11-28',
  size: 'M',
  langs: ['en', 'fr'],
  plan: 'Pro',
  topics: ['A'],
  terms: true,
  campaign: 'spring',
};

const INVALID: Record<string, Record<string, unknown>> = {
  'missing required name': { ...VALID, name: undefined },
  'blank name': { ...VALID, name: '   ' },
  'name too long': { ...VALID, name: 'x'.repeat(41) },
  'bad e-mail': { ...VALID, email: 'nope' },
  'seats below min': { ...VALID, seats: 0 },
  'seats not a number': { ...VALID, seats: 'many' },
  'ftp URL': { ...VALID, site: 'ftp://example.com' },
  'bad date': { ...VALID, day: '28/11/2026' },
  'unknown option': { ...VALID, size: 'XL' },
  'unknown group option': { ...VALID, topics: ['C'] },
  'terms unchecked': { ...VALID, terms: false },
};

const withoutUndefined = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

describe('formJsonSchema', () => {
  const schema = formJsonSchema({
    name: 'Signup',
    schemaUrl: 'https://forms.example/api/forms/1/schema',
    fields: FIELDS,
    unknownFields: 'reject',
    captchaField: null,
  });
  const validate = compile(schema);
  const ingestAccepts = (payload: Record<string, unknown>) =>
    validateFields({ fields: FIELDS, unknownFields: 'reject' }, payload, []).ok;

  it('is a 2020-12 schema with one property a posted field, required as set', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(Object.keys(schema.properties as object)).not.toContain('cv');
    expect(schema.required).toEqual(['name', 'email', 'plan', 'terms']);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.description).toMatch(/cv/);
  });

  it('accepts what ingest accepts, and ingest accepts every payload it accepts', () => {
    expect(validate(VALID), JSON.stringify(validate.errors)).toBe(true);
    expect(ingestAccepts(VALID)).toBe(true);
    expect(validate({ ...VALID, _hp: '', _ts: '1700000000000' })).toBe(true);
  });

  it.each(Object.entries(INVALID))('refuses a payload with %s, as ingest does', (_, payload) => {
    const clean = withoutUndefined(payload);
    expect(validate(clean)).toBe(false);
    expect(ingestAccepts(clean)).toBe(false);
  });

  it("takes the sample payload of the form's request examples, as ingest does", () => {
    const sample = samplePayload(FIELDS);
    expect(validate(sample), JSON.stringify(validate.errors)).toBe(true);
    expect(ingestAccepts(sample)).toBe(true);
  });

  it('refuses names outside the list only when unknown_fields is reject', () => {
    expect(validate({ ...VALID, extra: 1 })).toBe(false);
    const keep = compile(
      formJsonSchema({
        name: 'x',
        schemaUrl: 'https://f.example/s',
        fields: FIELDS,
        unknownFields: 'keep',
        captchaField: null,
      }),
    );
    expect(keep({ ...VALID, extra: 1 })).toBe(true);
  });

  it('is an open object for a free-form form, with the CAPTCHA field required when set', () => {
    const open = formJsonSchema({
      name: 'Free',
      schemaUrl: 'https://f.example/s',
      fields: null,
      unknownFields: 'keep',
      captchaField: 'altcha',
    });
    const check = compile(open);
    expect(check({ anything: [1, { nested: true }], altcha: 'x' })).toBe(true);
    expect(check({ anything: 1 })).toBe(false);
    expect(check({ email: 'not an address', altcha: 'x' })).toBe(false);
  });
});
