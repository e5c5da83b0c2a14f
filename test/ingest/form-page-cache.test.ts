import { describe, expect, it } from 'vitest';
import type { CachedForm } from '../../src/domain/forms/form-cache';
import type { FormField } from '../../src/domain/forms/form-fields';
import { renderFormPage, type ServedForm } from '../../src/http/ingest/form-page-answers';
import { FormPageCache } from '../../src/http/ingest/form-page-cache';

const HOSTILE = '"><script>alert(1)</script>';
const chrome = { abuseContact: 'mailto:abuse@example.com' };

function pageForm(version: string, fields: FormField[]): CachedForm & ServedForm {
  return {
    id: '7',
    accountId: '1',
    name: 'f',
    endpointToken: 'tok0000000000001',
    isActive: true,
    acceptFiles: false,
    allowedDomains: [],
    successRedirectUrl: null,
    captcha: { provider: 'altcha' },
    fields,
    unknownFields: 'keep',
    page: {
      title: 'Sign up',
      description: null,
      submit_label: 'Send',
      success_message: 'Thanks',
      accent_color: null,
    },
    domain: null,
    limits: null,
    submitterAccess: 'none',
    editUntil: null,
    version,
  } as CachedForm & ServedForm;
}

const FIELDS: FormField[] = [
  { name: 'utm_source', label: 'Source', type: 'hidden', required: false },
  { name: 'name', label: 'Name', type: 'text', required: true },
  {
    name: 'plan',
    label: 'Plan',
    type: 'select',
    required: true,
    options: ['Free', ' padded', 'a  b'],
  },
  { name: 'ref', label: 'Ref', type: 'hidden', required: false },
] as FormField[];

describe('FormPageCache', () => {
  it('answers what rendering the page afresh answers, hidden values escaped in their slots', () => {
    const cache = new FormPageCache({ maxBytes: 1 << 20 });
    const form = pageForm('v1', FIELDS);
    const queries: Record<string, string>[] = [
      {},
      { utm_source: 'news' },
      { utm_source: HOSTILE, ref: '&x' },
    ];
    for (const hidden of queries) {
      for (const base of ['/f/tok0000000000001', '/signup']) {
        const values = Object.fromEntries(Object.entries(hidden).map(([k, v]) => [k, [v]]));
        const fresh = renderFormPage(
          form,
          base,
          { values, problem: null, hadFiles: false },
          chrome,
        );
        expect(cache.page(form, base, hidden, chrome)).toBe(fresh);
      }
    }
    const page = cache.page(form, '/x', { utm_source: HOSTILE }, chrome);
    expect(page).not.toContain('<script>alert');
    expect(page).not.toContain('fw-slot-');
  });

  it('renders once per form version and path, within its byte cap', () => {
    const cache = new FormPageCache({ maxBytes: 1 << 20 });
    const v1 = pageForm('v1', FIELDS);
    cache.page(v1, '/a', {}, chrome);
    const bytes = cache.bytes;
    cache.page(v1, '/a', { utm_source: 'other' }, chrome);
    expect(cache.bytes).toBe(bytes);
    cache.page(v1, '/b', {}, chrome);
    cache.page(pageForm('v2', FIELDS), '/a', {}, chrome);
    expect(cache.bytes).toBe(3 * bytes);

    const small = new FormPageCache({ maxBytes: 5 * bytes });
    for (let i = 0; i < 50; i++) {
      small.page(pageForm(`v${i}`, FIELDS), '/a', {}, chrome);
      expect(small.bytes).toBeLessThanOrEqual(5 * bytes);
    }
  });

  it("writes a select's option once where its text says its value", () => {
    const html = new FormPageCache({ maxBytes: 1 << 20 }).page(
      pageForm('v', FIELDS),
      '/a',
      {},
      chrome,
    );
    expect(html).toContain('<option>Free</option>');
    // White space a browser would trim or collapse keeps the value written out.
    expect(html).toContain('<option value=" padded"> padded</option>');
    expect(html).toContain('<option value="a  b">a  b</option>');
    expect(html.split('Free').length - 1).toBe(1);
  });
});
