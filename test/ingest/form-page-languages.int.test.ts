import { describe, expect, it } from 'vitest';
import { expectAnswer, expectError, type FormView } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { postForm, postJson } from '../support/ingest-requests';
import { PAGE, VALID_ANSWERS, pageFormSettings } from '../support/page-form';
import { countSubmissions } from '../support/stored-submissions';

// A hosted page in its language (docs/languages.md): lang and dir, the built-in texts, the
// messages of a refused post, the thank-you and closed pages; /json's field_errors by
// Accept-Language with English errors; page.language through the API.

const t = useTestStack({ env: { ABUSE_CONTACT: 'mailto:abuse@forms.example' } });
const HTML = { accept: 'text/html,application/xhtml+xml' };
const HOUR_MS = 3_600_000;

/** The demo page in `language`, with the default button and thank-you text. */
const pageIn = (language: string) => ({
  title: PAGE.title,
  description: PAGE.description,
  language,
});

const pagePath = (form: FormView) => `/f/${form.endpoint_token}`;

async function pageHtml(form: FormView) {
  const res = await t.http.get(pagePath(form), { headers: HTML });
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return res.text;
}

/** The posted answers without `name`: a required field left empty. */
const WITHOUT_NAME = VALID_ANSWERS.filter(([name]) => name !== 'name');

describe('a page in German', () => {
  it('has lang="de" dir="ltr" and every built-in text in German', async () => {
    const form = await t.api.createForm(pageFormSettings({ page: pageIn('de') }));
    expect(form.page?.language).toBe('de');
    const html = await pageHtml(form);
    expect(html).toContain('<html lang="de" dir="ltr">');
    expect(html).toContain(
      '<p class="required-note">Mit <span class="req" aria-hidden="true">*</span><span class="visually-hidden">Sternchen</span> markierte Felder sind Pflichtfelder.</p>',
    );
    expect(html).toContain('<option value="">Bitte wählen…</option>');
    expect(html).toContain('Erlaubte Dateitypen: .txt, image/*.');
    expect(html).toContain('Dieses Feld bitte leer lassen');
    expect(html).toContain('<button type="submit">Senden</button>');
    expect(html).toContain('<p>Geben Sie über dieses Formular niemals Passwörter ein.</p>');
    expect(html).toContain(
      'Ein Formular, bereitgestellt mit Formward. <a href="mailto:abuse@forms.example">Missbrauch melden</a>',
    );
    // The owner's texts are the owner's.
    expect(html).toContain('<h1>Book a demo</h1>');
    expect(html).toContain('<label for="f0">Your name');
    for (const english of ['Fields marked', 'Never submit', 'Choose…', 'Report abuse', '>Send<'])
      expect(html).not.toContain(english);
  });

  it('a post missing a required field shows the page again with German messages', async () => {
    const form = await t.api.createForm(pageFormSettings({ page: pageIn('de') }));
    // The page's language decides, not the browser's Accept-Language.
    const res = await postForm(form.submission_url, WITHOUT_NAME, {
      ...HTML,
      'accept-language': 'fr',
    });
    expect(res.status).toBe(422);
    const html = res.text;
    expect(html).toContain('<html lang="de" dir="ltr">');
    expect(html).toContain('<title>Fehler: Book a demo</title>');
    expect(html).toMatch(/<h2 id="error-summary-title">Bitte prüfen Sie Ihre Angaben<\/h2>/);
    expect(html).toContain('<a href="#f0">Your name: Bitte füllen Sie dieses Feld aus.</a>');
    expect(html).toContain(
      '<p class="error" id="f0-error"><span class="visually-hidden">Fehler: </span>Bitte füllen Sie dieses Feld aus.</p>',
    );
    expect(html).not.toContain('is required');
    expect(await countSubmissions(t.stack, form.id)).toBe(0);

    const sent = await postForm(form.submission_url, VALID_ANSWERS, HTML);
    expect(sent.status).toBe(302);
    const thanks = await t.http.get(sent.headers.get('location')!, { headers: HTML });
    expect(thanks.text).toContain('<html lang="de" dir="ltr">');
    expect(thanks.text).toContain('<p>Vielen Dank! Ihre Angaben sind bei uns eingegangen.</p>');
    expect(thanks.text).toContain('>Eine weitere Antwort senden</a>');
    expect(thanks.text).toMatch(/>Empfangsbestätigung herunterladen<\/a>: ein signierter Nachweis/);
  });

  it('a repeated unique value is shown beside its field, in German', async () => {
    const form = await t.api.createForm(
      pageFormSettings({ page: pageIn('de'), limits: { unique_field: 'email' } }),
    );
    expect((await postForm(form.submission_url, VALID_ANSWERS, HTML)).status).toBe(302);
    const res = await postForm(form.submission_url, VALID_ANSWERS, {
      ...HTML,
      'accept-language': 'fr',
    });
    expect(res.status).toBe(409);
    const html = res.text;
    const message =
      'Dieser Wert wurde für dieses Formular bereits verwendet. Jeder Wert kann nur einmal gesendet werden.';
    // A field's problem: the field heading, a link to the field, the message beside it.
    expect(html).toMatch(/<h2 id="error-summary-title">Bitte prüfen Sie Ihre Angaben<\/h2>/);
    expect(html).toContain(`<a href="#f1">E-mail address: ${message}</a>`);
    expect(html).toContain(
      `<p class="error" id="f1-error"><span class="visually-hidden">Fehler: </span>${message}</p>`,
    );
    expect(html).toMatch(/<input type="email" id="f1"[^>]*aria-invalid="true"/);
    expect(html).not.toContain('was already accepted');
    expect(await countSubmissions(t.stack, form.id)).toBe(1);
  });

  it("the owner's own button, thank-you text and closed message stay as written", async () => {
    const past = new Date(Date.now() - HOUR_MS).toISOString();
    const form = await t.api.createForm(
      pageFormSettings({ page: { ...PAGE, language: 'de' }, limits: { closes_at: past } }),
    );
    const closed = await pageHtml(form);
    expect(closed).toContain('<html lang="de" dir="ltr">');
    expect(closed).toContain(
      '<p>Dieses Formular ist geschlossen und nimmt keine Einsendungen mehr an.</p>',
    );
    const limits = (value: object) => t.api.patch(`/api/forms/${form.id}`, { limits: value });
    expect((await limits({ closes_at: past, closed_message: 'Bis bald!' })).status).toBe(200);
    expect(await pageHtml(form)).toContain('<p>Bis bald!</p>');
    const soon = new Date(Date.now() + HOUR_MS).toISOString();
    expect((await limits({ opens_at: soon })).status).toBe(200);
    expect(await pageHtml(form)).toMatch(
      /<p>Dieses Formular ist noch nicht geöffnet\. Es öffnet am \d+\. \S+ \d{4} um \d\d:\d\d \(UTC\)\.<\/p>/,
    );
    expect((await limits({ opens_at: null })).status).toBe(200);
    expect(await pageHtml(form)).toContain('<button type="submit">Request a demo</button>');
    const sent = await postForm(form.submission_url, VALID_ANSWERS, HTML);
    const thanks = await t.http.get(sent.headers.get('location')!, { headers: HTML });
    expect(thanks.text).toContain(`<p>${PAGE.success_message}</p>`);
  });
});

describe('other languages', () => {
  it('a page in Arabic is right to left; a change of language shows at once', async () => {
    const form = await t.api.createForm(pageFormSettings({ page: pageIn('ar') }));
    const html = await pageHtml(form);
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain('<button type="submit">إرسال</button>');
    expect(html).toContain('لا ترسل كلمات المرور عبر هذا النموذج أبدًا.');
    // The rendered page is cached per form version: a new language is a new version.
    const patched = await t.api.patch(`/api/forms/${form.id}`, { page: pageIn('ja') });
    expect(patched.status, patched.text).toBe(200);
    const ja = await pageHtml(form);
    expect(ja).toContain('<html lang="ja" dir="ltr">');
    expect(ja).toContain('<button type="submit">送信</button>');
  });

  it('a page stored without a language is English, as before', async () => {
    const form = await t.api.createForm(pageFormSettings());
    expect(form.page?.language).toBe('en');
    const html = await pageHtml(form);
    expect(html).toContain('<html lang="en" dir="ltr">');
    expect(html).toContain('Fields marked <span class="req"');
  });
});

describe('page.language through the API', () => {
  it('takes a supported tag in any case and stores its canonical form', async () => {
    const form = await t.api.createForm(pageFormSettings());
    const res = await t.api.patch(`/api/forms/${form.id}`, { page: pageIn('ZH-hans') });
    expect(expectAnswer(res, 'PATCH /api/forms/{id}', 200).form.page?.language).toBe('zh-Hans');
    const again = await t.api.get(`/api/forms/${form.id}`);
    expect(expectAnswer(again, 'GET /api/forms/{id}', 200).form.page?.language).toBe('zh-Hans');
  });

  it('refuses another tag with 422 naming the supported ones', async () => {
    const form = await t.api.createForm(pageFormSettings({ page: pageIn('de') }));
    const res = await t.api.patch(`/api/forms/${form.id}`, { page: pageIn('xx') });
    const body = expectError(res, 422, 'validation_failed');
    expect(body.errors).toEqual([
      'page.language: must be one of the supported languages: en, de, fr, es, it, nl, pt, pl, ar, he, ja, zh-Hans',
    ]);
    const unchanged = await t.api.get(`/api/forms/${form.id}`);
    expect(expectAnswer(unchanged, 'GET /api/forms/{id}', 200).form.page?.language).toBe('de');
  });
});

describe('/json field_errors by Accept-Language', () => {
  const refused = async (form: FormView, headers: Record<string, string>) => {
    const res = await postJson(
      `${t.stack.url}/json/${form.endpoint_token}`,
      { name: 'Ada', email: 'nope' },
      headers,
    );
    return expectError(res, 422, 'validation_failed');
  };
  const ENGLISH_ERRORS = [
    'email: must be a valid e-mail address',
    'message: is required',
    'plan: is required',
    'contact_by: is required',
    'terms: must be checked',
  ];

  it('in the language asked for, errors unchanged in English', async () => {
    // The page is German: /json answers the request's language, not the page's.
    const form = await t.api.createForm(pageFormSettings({ page: pageIn('de') }));
    const french = await refused(form, { 'accept-language': 'fr-CH, fr;q=0.9, en;q=0.5' });
    expect(french.errors).toEqual(ENGLISH_ERRORS);
    expect(french.field_errors).toEqual({
      email: 'Veuillez saisir une adresse e-mail valide.',
      message: 'Ce champ est obligatoire.',
      plan: 'Ce champ est obligatoire.',
      contact_by: 'Ce champ est obligatoire.',
      terms: 'Veuillez cocher cette case.',
    });
    const chinese = await refused(form, { 'accept-language': 'zh-CN' });
    expect(chinese.field_errors?.email).toBe('请输入有效的电子邮箱地址。');
  });

  it('English without Accept-Language, with an unsupported one, or asked for', async () => {
    const form = await t.api.createForm(pageFormSettings({ page: pageIn('de') }));
    const english = {
      email: 'must be a valid e-mail address',
      message: 'is required',
      plan: 'is required',
      contact_by: 'is required',
      terms: 'must be checked',
    };
    const asked: Record<string, string>[] = [
      {},
      { 'accept-language': 'sv, fi;q=0.5' },
      { 'accept-language': 'en' },
    ];
    for (const headers of asked) {
      const body = await refused(form, headers);
      expect(body.errors).toEqual(ENGLISH_ERRORS);
      expect(body.field_errors).toEqual(english);
    }
  });
});
