import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { formPageCacheOf } from '../../src/http/ingest/form-page-cache';
import { expectError } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { pageFormSettings } from '../support/page-form';

// What serves hosted pages is bounded by bytes (docs/form-pages.md, Serving cost): 500 forms
// with ~60 KiB field lists, each page opened once, leave the form cache and the page cache
// within their caps; page GETs are limited per client network (FORM_PAGE_RATE).

const FORMS = 500;
const FORM_CACHE_MAX_BYTES = 8 * 1024 * 1024;
const FORM_PAGE_CACHE_MAX_BYTES = 8 * 1024 * 1024;
const t = useTestStack({
  env: {
    TRUST_PROXY: 'true',
    FORM_PAGE_RATE: '120',
    FORM_CACHE_MAX_BYTES: String(FORM_CACHE_MAX_BYTES),
    FORM_PAGE_CACHE_MAX_BYTES: String(FORM_PAGE_CACHE_MAX_BYTES),
  },
});
const HTML = { accept: 'text/html,application/xhtml+xml' };

/** A field list of about 60 KiB serialized: 60 text fields and 5 selects of 200 options. */
function largeFields() {
  const texts = Array.from({ length: 60 }, (_, i) => ({
    name: `question_${i}`,
    label: `Question ${i}: ${'please tell us about it '.repeat(5)}`,
    type: 'text',
    required: false,
    help: `Help for question ${i}: ${'a longer explanation of what we ask '.repeat(5)}`,
  }));
  const selects = Array.from({ length: 5 }, (_, i) => ({
    name: `choice_${i}`,
    label: `Choice ${i}`,
    type: 'select',
    required: false,
    options: Array.from({ length: 200 }, (_, j) => `Option ${i}.${j}: a choice of some length`),
  }));
  return [...texts, ...selects];
}

/** Texts of largeFields() each copy replaces with its own number, the same length. */
const DISTINCT = ['some length', 'tell us about it', 'explanation'];

/** A function that runs a full garbage collection (node's --expose-gc, turned on late). */
function gcFunction(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

/** The heap in use after a full collection, in bytes. */
function retainedHeap(gc: () => void) {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Client networks as a proxy names them (TRUST_PROXY): one IPv6 /64 each. */
const network = (n: number, host = 1) => ({ 'x-forwarded-for': `2001:db8:${n}:1::${host}` });

describe('hosted pages of many large forms', () => {
  it('keep the form and page caches within their byte caps', async () => {
    const fields = largeFields();
    expect(JSON.stringify(fields).length).toBeGreaterThan(55 * 1024);
    expect(JSON.stringify(fields).length).toBeLessThan(64 * 1024);
    const first = await t.api.createForm(pageFormSettings());
    // The other 499 are copies made in the database, each with its own token.
    await t.stack.sql('update forms set fields = ?::jsonb where id = ?', [
      JSON.stringify(fields),
      first.id,
    ]);
    const columns = (
      await t.stack.sql<{ column_name: string }>(
        `select column_name from information_schema.columns
          where table_name = 'forms' and column_name not in ('id', 'endpoint_token')`,
      )
    ).map((c) => `"${c.column_name}"`);
    // Each copy's texts its own (as different forms would have), the same size.
    const copied = columns.map((c) =>
      c === '"fields"'
        ? `${DISTINCT.reduce((sql, text) => `replace(${sql}, '${text}', lpad(n::text, ${text.length}, '0'))`, 'fields::text')}::jsonb`
        : c,
    );
    await t.stack.sql(
      `insert into forms (endpoint_token, ${columns.join(', ')})
       select 'p' || lpad(n::text, 15, '0'), ${copied.join(', ')}
         from forms, generate_series(1, ${FORMS - 1}) n where id = ?`,
      [first.id],
    );
    const tokens = [
      first.endpoint_token,
      ...Array.from({ length: FORMS - 1 }, (_, i) => `p${String(i + 1).padStart(15, '0')}`),
    ];

    const gc = gcFunction();
    const before = retainedHeap(gc);
    const started = performance.now();
    // From 5 networks, 100 pages each: under FORM_PAGE_RATE, as a spread-out client would be.
    for (let i = 0; i < tokens.length; i += 10) {
      const answers = await Promise.all(
        tokens
          .slice(i, i + 10)
          .map((token, j) =>
            t.http.get(`/f/${token}`, { headers: { ...HTML, ...network((i + j) % 5) } }),
          ),
      );
      for (const res of answers) expect(res.status, res.text.slice(0, 200)).toBe(200);
    }
    const elapsed = performance.now() - started;
    const after = retainedHeap(gc);

    const formCache = t.stack.ctx.forms.bytes;
    const pageCache = formPageCacheOf(t.stack.ctx).bytes;
    const page = await t.http.get(`/f/${tokens[0]}`, { headers: { ...HTML, ...network(9) } });
    const MiB = 1024 * 1024;
    console.log(
      `${FORMS} pages of ${(JSON.stringify(fields).length / 1024).toFixed(1)} KiB fields ` +
        `(${(page.text.length / 1024).toFixed(0)} KiB of HTML each) in ${elapsed.toFixed(0)} ms; ` +
        `form cache ${(formCache / MiB).toFixed(1)} MiB, page cache ${(pageCache / MiB).toFixed(1)} MiB ` +
        `accounted; heap retained ${(before / MiB).toFixed(1)} → ${(after / MiB).toFixed(1)} MiB ` +
        `(+${((after - before) / MiB).toFixed(1)} MiB)`,
    );
    // Both caches were full and held to their caps...
    expect(formCache).toBeLessThanOrEqual(FORM_CACHE_MAX_BYTES);
    expect(formCache).toBeGreaterThan(FORM_CACHE_MAX_BYTES / 2);
    expect(pageCache).toBeLessThanOrEqual(FORM_PAGE_CACHE_MAX_BYTES);
    expect(pageCache).toBeGreaterThan(FORM_PAGE_CACHE_MAX_BYTES / 2);
    // ...and so is the process: what is kept is about the caps, not the forms read.
    expect(after - before).toBeLessThan(
      FORM_CACHE_MAX_BYTES + FORM_PAGE_CACHE_MAX_BYTES + 12 * MiB,
    );
    // Each option is written once in the page.
    expect(page.text.split('Option 0.7: a choice of some length').length - 1).toBe(1);
  });
});

describe('page GETs per client network', () => {
  it('the GET past FORM_PAGE_RATE from one /64 is 429 rate_limited, another network is served', async () => {
    // Another account: the first test's used up its forms.
    const tenant = await t.newTenant();
    const form = await tenant.api.createForm(pageFormSettings());
    const path = `/f/${form.endpoint_token}`;
    for (let i = 0; i < 120; i++) {
      // Addresses of one /64 count as one client.
      const res = await t.http.get(path, { headers: { ...HTML, ...network(100, i + 1) } });
      expect(res.status).toBe(200);
    }
    const refused = await t.http.get(path, { headers: { ...HTML, ...network(100, 999) } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    expect(refused.text).toContain('Form not available');
    expect(refused.text).toContain('too many form pages opened from your network');
    // Across forms too, and a JSON client gets the error envelope.
    const other = await tenant.api.createForm(pageFormSettings());
    expectError(
      await t.http.get(`/f/${other.endpoint_token}`, { headers: network(100, 5) }),
      429,
      'rate_limited',
    );
    // Another /64 is served.
    const elsewhere = await t.http.get(path, { headers: { ...HTML, ...network(101) } });
    expect(elsewhere.status).toBe(200);
  });

  it('the thank-you page counts with the form pages', async () => {
    const tenant = await t.newTenant();
    const form = await tenant.api.createForm(pageFormSettings());
    for (let i = 0; i < 60; i++) {
      const page = await t.http.get(`/f/${form.endpoint_token}`, {
        headers: { ...HTML, ...network(102, i + 1) },
      });
      expect(page.status).toBe(200);
      // A receipt query makes each GET verify a signature: nothing to offer here, still counted.
      const thanks = await t.http.get(`/f/${form.endpoint_token}/thanks?receipt=a.b.c`, {
        headers: { ...HTML, ...network(102, i + 1) },
      });
      expect(thanks.status).toBe(200);
      expect(thanks.text).not.toContain('Download your receipt');
    }
    const refused = await t.http.get(`/f/${form.endpoint_token}/thanks`, {
      headers: { ...HTML, ...network(102, 7) },
    });
    expect(refused.status).toBe(429);
    const elsewhere = await t.http.get(`/f/${form.endpoint_token}/thanks`, {
      headers: { ...HTML, ...network(103) },
    });
    expect(elsewhere.status).toBe(200);
  });
});
