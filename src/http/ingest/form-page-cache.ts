import { randomBytes } from 'node:crypto';
import escapeHtml from 'escape-html';
import { ByteLruCache } from '../../domain/cache/byte-lru-cache';
import type { CachedForm } from '../../domain/forms/form-cache';
import type { PageChrome } from './form-page/page-document';
import { renderFormPage, type ServedForm } from './form-page-answers';

/** A rendered page with a slot for each hidden field's value (which a GET takes from its query). */
type PageTemplate = {
  /** Markup and slots in turn: markup, slot, markup, …, markup. */
  parts: string[];
  /** The field index each slot is filled from, one per slot. */
  slots: number[];
};

/** Rendered pages nobody asked for in this long are swept, whatever the cap. */
const PAGE_TTL_MS = 10 * 60_000;

/**
 * A V8 string takes one byte a character when it is all Latin-1, else two; plus a constant
 * for the entry.
 */
const templateBytes = (parts: string[]) =>
  parts.reduce((sum, part) => sum + part.length * (/[\u0100-\uffff]/.test(part) ? 2 : 1), 0) + 512;

/**
 * The hosted page a GET answers (docs/form-pages.md), rendered once per form version
 * (`CachedForm.version`) and path, and kept within FORM_PAGE_CACHE_MAX_BYTES. A page shown
 * again after a refused post is rendered apart, with what was posted.
 */
export class FormPageCache {
  private readonly pages: ByteLruCache<PageTemplate>;
  /** Marks a slot in the rendered markup; random, so no form text can hold it. */
  private readonly marker = `fw-slot-${randomBytes(12).toString('hex')}-`;
  private readonly slotPattern = new RegExp(`${this.marker}(\\d+)-`);

  constructor(options: { maxBytes: number; now?: () => number }) {
    this.pages = new ByteLruCache({ ...options, ttlMs: PAGE_TTL_MS });
  }

  /** The bytes of the pages kept, never above the cap. */
  get bytes(): number {
    return this.pages.bytes;
  }

  /**
   * The page of `form` at `base`, with `hidden` (by field name) as the hidden fields' values:
   * the same markup renderFormPage makes for a GET.
   */
  page(
    form: CachedForm & ServedForm,
    base: string,
    hidden: Record<string, string>,
    chrome: PageChrome,
  ): string {
    const key = `${form.id}|${form.version}|${base}`;
    let template = this.pages.get(key);
    if (!template) {
      template = this.render(form, base, chrome);
      this.pages.set(key, template, templateBytes(template.parts));
    }
    const { parts, slots } = template;
    let html = parts[0]!;
    for (let i = 0; i < slots.length; i++) {
      const field = form.fields[slots[i]!]!;
      html += escapeHtml(hidden[field.name] ?? '') + parts[i + 1]!;
    }
    return html;
  }

  private render(form: ServedForm, base: string, chrome: PageChrome): PageTemplate {
    const values: Record<string, string[]> = {};
    form.fields.forEach((field, index) => {
      if (field.type === 'hidden') values[field.name] = [`${this.marker}${index}-`];
    });
    const pieces = renderFormPage(form, base, { values, problem: null, hadFiles: false }, chrome)
      // split with a capturing group: markup, index, markup, index, …, markup
      .split(this.slotPattern);
    return {
      parts: pieces.filter((_, i) => i % 2 === 0),
      slots: pieces.filter((_, i) => i % 2 === 1).map(Number),
    };
  }
}

/** One page cache per form cache (per running server: route contexts are copies of one). */
const caches = new WeakMap<object, FormPageCache>();
export function formPageCacheOf(ctx: {
  forms: object;
  config: { formPageCacheMaxBytes: number };
}): FormPageCache {
  let found = caches.get(ctx.forms);
  if (!found) {
    found = new FormPageCache({ maxBytes: ctx.config.formPageCacheMaxBytes });
    caches.set(ctx.forms, found);
  }
  return found;
}
