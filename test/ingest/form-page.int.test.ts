import { describe, expect, it } from 'vitest';
import { expectError, type ApiResponse, type FormView } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { postForm, postMultipart, withoutReceipt } from '../support/ingest-requests';
import {
  EVERY_FIELD_TYPE,
  HOSTILE,
  HOSTILE_ESCAPED,
  PAGE,
  STORED_ANSWERS,
  VALID_ANSWERS,
  pageFormSettings,
} from '../support/page-form';
import { countSubmissions, onlySubmission } from '../support/stored-submissions';

// The hosted form page over HTTP (docs/form-pages.md): GET /f/{token}, a browser's failed and
// successful posts, the thank-you page, and allowed_domains with the page's own origin.

const ABUSE_CONTACT = 'mailto:abuse@forms.example?subject=Form%20page';
const t = useTestStack({ env: { ABUSE_CONTACT } });
const HTML = { accept: 'text/html,application/xhtml+xml' };

const pagePath = (form: FormView) => `/f/${form.endpoint_token}`;

function expectPage(res: ApiResponse, status: number) {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain("'unsafe-eval'");
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(res.headers.get('referrer-policy')).toBe('same-origin');
  return res.text;
}

/** The attributes of the element with this id, as written in the markup. */
function tagWithId(html: string, id: string): string {
  const match = new RegExp(`<(input|select|textarea)[^>]*\\sid="${id}"[^>]*>`).exec(html);
  expect(match, `no control with id ${id}`).not.toBeNull();
  return match![0];
}

describe('GET /f/{token}: the hosted page', () => {
  it('404 not_found without a page or without fields, 404 not_active when inactive', async () => {
    const fieldsOnly = await t.api.createForm({ fields: EVERY_FIELD_TYPE, accept_files: true });
    const pageOnly = await t.api.createForm({ page: PAGE });
    const inactive = await t.api.createForm(pageFormSettings({ is_active: false }));
    expect(fieldsOnly.page_url).toBeNull();
    expect(pageOnly.page_url).toBeNull();
    expectError(await t.http.get(pagePath(fieldsOnly)), 404, 'not_found');
    expectError(await t.http.get(pagePath(pageOnly)), 404, 'not_found');
    expectError(await t.http.get('/f/nosuchtoken0000'), 404, 'not_found');
    expectError(await t.http.get(pagePath(inactive)), 404, 'not_active');
    // A browser gets a page saying so, not the "submission not accepted" one.
    const browser = await t.http.get(pagePath(fieldsOnly), { headers: HTML });
    expect(browser.status).toBe(404);
    expect(browser.text).toContain('Form not available');
  });

  it('serves every field type with a label, required marks and help tied to its control', async () => {
    const form = await t.api.createForm(pageFormSettings());
    expect(form.page_url).toBe(`${t.stack.url}${pagePath(form)}`);
    const html = expectPage(await t.http.get(form.page_url!, { headers: HTML }), 200);
    expect(html).toContain('<h1>Book a demo</h1>');
    expect(html).toContain('<p>Tell us about your team');
    expect(html).toContain('<p>Fields you leave empty are fine.</p>');
    expect(html).toContain(`<form method="post" action="${pagePath(form)}"`);
    expect(html).toContain('enctype="multipart/form-data"');
    expect(html).toContain('Request a demo</button>');
    expect(html).toContain('--accent:#0f766e');
    EVERY_FIELD_TYPE.forEach((field, index) => {
      if (field.type === 'hidden') return;
      const group = (field.type === 'radio' || field.type === 'checkbox') && 'options' in field;
      if (group) {
        expect(html).toMatch(new RegExp(`<legend>${field.label}`));
        (field.options ?? []).forEach((option: string, i: number) => {
          expect(tagWithId(html, `f${index}-${i}`)).toContain(`value="${option}"`);
        });
      } else {
        expect(html).toContain(`<label for="f${index}">${field.label}`);
        const control = tagWithId(html, `f${index}`);
        expect(control).toContain(`name="${field.name}"`);
        if (field.required) expect(control).toMatch(/ required aria-required="true"/);
        else expect(control).not.toContain('required');
      }
    });
    expect(tagWithId(html, 'f1')).toContain('aria-describedby="f1-help"');
    expect(html).toContain('<p class="hint" id="f1-help">We only use it to answer you.</p>');
    expect(tagWithId(html, 'f1')).toContain('type="email"');
    expect(tagWithId(html, 'f3')).toMatch(/type="number".*min="1" max="10"/);
    expect(tagWithId(html, 'f8')).toContain(' multiple');
    expect(tagWithId(html, 'f12')).toMatch(/type="file".*accept="\.txt,image\/\*" multiple/);
    expect(html).toMatch(/<fieldset class="field" role="radiogroup" aria-required="true">/);
    // The honeypot, the page-load stamp and its script; the CAPTCHA-less page loads no script.
    expect(html).toContain('name="_hp" value="" tabindex="-1"');
    expect(html).toContain('<input type="hidden" name="_ts" value="">');
    expect(html).not.toMatch(/<script src=/);
    // Fields before files: the file input comes last among the controls.
    expect(html.indexOf('name="attachment"')).toBeGreaterThan(html.indexOf('name="terms"'));
  });

  it('fills a hidden field from the query parameter of the same name, escaped', async () => {
    const form = await t.api.createForm(pageFormSettings());
    const url = `${form.page_url}?utm_source=${encodeURIComponent(HOSTILE)}&name=Mallory`;
    const html = expectPage(await t.http.get(url, { headers: HTML }), 200);
    expect(html).toContain(`<input type="hidden" name="utm_source" value="${HOSTILE_ESCAPED}">`);
    expect(html).not.toContain(HOSTILE);
    // Only hidden fields are filled from the URL.
    expect(html).not.toContain('Mallory');
  });

  it("shows the owner's labels, options, help and texts only escaped", async () => {
    const form = await t.api.createForm({
      fields: [
        { name: 'a', label: HOSTILE, type: 'text', required: true, help: HOSTILE },
        { name: 'b', label: 'Pick', type: 'select', required: false, options: [HOSTILE, 'x'] },
        { name: 'c', label: 'Tick', type: 'checkbox', required: false, options: [HOSTILE] },
      ],
      page: {
        title: HOSTILE,
        description: HOSTILE,
        submit_label: HOSTILE,
        success_message: HOSTILE,
      },
    });
    const html = expectPage(await t.http.get(form.page_url!, { headers: HTML }), 200);
    expect(html).not.toContain('<script>alert');
    expect(html).toContain(`<title>${HOSTILE_ESCAPED}</title>`);
    // An option is written once: its text is its value.
    expect(html).toContain(`<option>${HOSTILE_ESCAPED}</option>`);
    expect(html.split(HOSTILE_ESCAPED).length - 1).toBeGreaterThanOrEqual(8);
    // The owner's success message too, on the thank-you page.
    const thanks = await t.http.get(`${pagePath(form)}/thanks`);
    expect(thanks.text).not.toContain('<script>alert');
    expect(thanks.text).toContain(HOSTILE_ESCAPED);
  });
});

describe('POST /f/{token} from the page', () => {
  it('a refused post shows the page again: summary, messages beside fields, values kept', async () => {
    const form = await t.api.createForm(pageFormSettings());
    const res = await postMultipart(
      form.submission_url,
      [
        { name: 'name', value: HOSTILE },
        { name: 'email', value: `not-an-address${HOSTILE}` },
        { name: 'message', value: `</textarea>${HOSTILE}` },
        { name: 'guests', value: '12' },
        { name: 'plan', value: 'Team' },
        { name: 'languages', value: 'German' },
        { name: 'topics', value: 'Events' },
        { name: 'utm_source', value: HOSTILE },
        { name: 'attachment', filename: 'notes.txt', contentType: 'text/plain', content: 'hi' },
        { name: '_hp', value: '' },
      ],
      HTML,
    );
    const html = expectPage(res, 422);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(html).toContain('<title>Error: Book a demo</title>');
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('</textarea>&');
    // The summary, first, linking to each field's control.
    expect(html).toMatch(
      /<div class="error-summary" role="alert"[^>]*>\s*<h2[^>]*>There is a problem/,
    );
    expect(html).toContain('<a href="#f1">E-mail address: must be a valid e-mail address</a>');
    expect(html).toContain('<a href="#f3">Number of guests: must be at most 10</a>');
    expect(html).toContain('<a href="#f9-0">How should we contact you?: is required</a>');
    expect(html).toContain('<a href="#f11">I agree to the terms: must be checked</a>');
    expect(html).toContain('Files you chose were not kept: choose them again.');
    // Each message beside its field, tied to the control; the first invalid one has the focus.
    expect(tagWithId(html, 'f1')).toMatch(
      /aria-describedby="f1-help f1-error" aria-invalid="true" autofocus/,
    );
    expect(html).toContain(
      '<p class="error" id="f1-error"><span class="visually-hidden">Error: </span>must be a valid e-mail address</p>',
    );
    expect(html.match(/autofocus/g)).toHaveLength(1);
    expect(html).toMatch(
      /role="radiogroup" aria-required="true" aria-invalid="true" aria-describedby="f9-error"/,
    );
    // The posted values, escaped; files must be chosen again.
    expect(tagWithId(html, 'f0')).toContain(`value="${HOSTILE_ESCAPED}"`);
    expect(tagWithId(html, 'f1')).toContain(`value="not-an-address${HOSTILE_ESCAPED}"`);
    expect(html).toContain(`>&lt;/textarea&gt;${HOSTILE_ESCAPED}</textarea>`);
    expect(tagWithId(html, 'f3')).toContain('value="12"');
    expect(html).toContain('<option selected>Team</option>');
    expect(html).toContain('<option selected>German</option>');
    expect(tagWithId(html, 'f10-1')).toContain('checked');
    expect(tagWithId(html, 'f10-0')).not.toContain('checked');
    expect(html).toContain(`<input type="hidden" name="utm_source" value="${HOSTILE_ESCAPED}">`);
    expect(html).toContain('Files are not kept when the form is shown again: choose them again.');
    expect(await countSubmissions(t.stack, form.id)).toBe(0);
  });

  it('a JSON client posting to a page form still gets 422 with field_errors', async () => {
    const form = await t.api.createForm(pageFormSettings());
    const res = await postForm(
      form.submission_url,
      { name: 'Ada' },
      { accept: 'application/json' },
    );
    const body = expectError(res, 422, 'validation_failed') as { field_errors?: object };
    expect(body.field_errors).toMatchObject({ email: 'is required', terms: 'must be checked' });
  });

  it('success: post/redirect/get to the thank-you page, which shows the success message', async () => {
    const form = await t.api.createForm(pageFormSettings());
    const res = await postForm(form.submission_url, VALID_ANSWERS, HTML);
    expect(res.status).toBe(302);
    expect(withoutReceipt(res.headers.get('location'))).toBe(`${pagePath(form)}/thanks`);
    expect((await onlySubmission(t.stack, form.id)).payload_json).toEqual(STORED_ANSWERS);
    const thanks = await t.http.get(res.headers.get('location')!, { headers: HTML });
    expect(thanks.status).toBe(200);
    expect(thanks.text).toContain('<p>Thanks! We will be in touch within one working day.</p>');
    expect(thanks.text).toContain('--accent:#0f766e');
    expect(thanks.text).toContain(`<a href="${pagePath(form)}">Send another response</a>`);
    expect(thanks.text).toContain('Never submit passwords through this form.');
  });

  it('every page warns against passwords and links to the operator’s abuse contact', async () => {
    const form = await t.api.createForm(pageFormSettings());
    const html = expectPage(await t.http.get(pagePath(form), { headers: HTML }), 200);
    const footer = /<footer class="page-footer">([\s\S]*?)<\/footer>/.exec(html)?.[1] ?? '';
    expect(footer).toContain('Never submit passwords through this form.');
    expect(footer).toContain(
      '<a href="mailto:abuse@forms.example?subject=Form%20page">Report abuse</a>',
    );
    // After </main>: a contentinfo landmark of its own, not part of the customer's content.
    expect(html.indexOf('<footer')).toBeGreaterThan(html.indexOf('</main>'));
  });

  it('success with success_redirect_url goes there, and the page lets the form post lead there', async () => {
    const target = 'https://example.com/welcome?from=page';
    const form = await t.api.createForm(pageFormSettings({ success_redirect_url: target }));
    const page = await t.http.get(form.page_url!, { headers: HTML });
    expect(page.headers.get('content-security-policy')).toContain(
      "form-action 'self' https://example.com",
    );
    const res = await postForm(form.submission_url, VALID_ANSWERS, HTML);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(target);
  });

  it('a form without a page keeps the plain error page and the absolute thank-you URL', async () => {
    const form = await t.api.createForm({ fields: EVERY_FIELD_TYPE, accept_files: true });
    const refused = await postForm(form.submission_url, { name: 'Ada' }, HTML);
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('Submission not accepted');
    expect(refused.headers.get('referrer-policy')).toBe('no-referrer');
    const res = await postForm(form.submission_url, VALID_ANSWERS, HTML);
    expect(withoutReceipt(res.headers.get('location'))).toBe(
      `${t.stack.url}/f/${form.endpoint_token}/thanks`,
    );
  });

  it('captcha_failed shows the page again with the message at the top and the values', async () => {
    const form = await t.api.createForm(pageFormSettings({ captcha: { provider: 'altcha' } }));
    const page = expectPage(await t.http.get(form.page_url!, { headers: HTML }), 200);
    expect(page).toContain(`<script src="${pagePath(form)}/altcha.js" async defer></script>`);
    expect(page).toContain(`<altcha-widget challenge="${pagePath(form)}/challenge" name="altcha">`);
    // The widget comes before the file input, as ingest checks it before writing a file.
    expect(page.indexOf('<altcha-widget')).toBeLessThan(page.indexOf('name="attachment"'));
    const res = await postForm(form.submission_url, VALID_ANSWERS, HTML);
    const html = expectPage(res, 422);
    expect(res.headers.get('content-security-policy')).toContain('worker-src blob: data:');
    expect(html).toMatch(
      /role="alert" aria-labelledby="error-summary-title" tabindex="-1" autofocus/,
    );
    expect(html).toContain(
      'The anti-spam check did not pass. Complete it again, then send the form.',
    );
    expect(tagWithId(html, 'f0')).toContain('value="Ada Lovelace"');
    expect(await countSubmissions(t.stack, form.id)).toBe(0);
  });
});

describe('allowed_domains and the page’s own origin', () => {
  it("a restricted form takes posts from its page on the ingest host, and others' stay refused", async () => {
    const form = await t.api.createForm(pageFormSettings({ allowed_domains: ['example.com'] }));
    const ownOrigin = new URL(t.stack.url).origin;
    const fromPage = await postForm(form.submission_url, VALID_ANSWERS, {
      ...HTML,
      origin: ownOrigin,
    });
    expect(fromPage.status).toBe(302);
    const byReferer = await postForm(form.submission_url, VALID_ANSWERS, {
      ...HTML,
      referer: `${form.page_url}?utm_source=x`,
    });
    expect(byReferer.status).toBe(302);
    const elsewhere = await postForm(form.submission_url, VALID_ANSWERS, {
      accept: 'application/json',
      origin: 'https://evil.example.net',
    });
    expectError(elsewhere, 403, 'domain_not_allowed');
    expect(await countSubmissions(t.stack, form.id)).toBe(2);
    // Without a page the ingest origin is no exception.
    const plain = await t.api.createForm({ allowed_domains: ['example.com'] });
    const res = await postForm(plain.submission_url, VALID_ANSWERS, {
      accept: 'application/json',
      origin: ownOrigin,
    });
    expectError(res, 403, 'domain_not_allowed');
  });
});

describe('rate limited (INGEST_RATE_LIMIT=1)', () => {
  const limited = useTestStack({ env: { INGEST_RATE_LIMIT: '1' } });

  it('a 429 shows the page again with the message and the values read', async () => {
    const form = await limited.api.createForm(pageFormSettings());
    const first = await postForm(form.submission_url, VALID_ANSWERS, HTML);
    expect(first.status).toBe(302);
    const res = await postForm(form.submission_url, VALID_ANSWERS, HTML);
    const html = expectPage(res, 429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(html).toContain('Too many submissions came from your network just now.');
    expect(tagWithId(html, 'f1')).toContain('value="ada@example.com"');
    expect(await countSubmissions(limited.stack, form.id)).toBe(1);
  });
});
