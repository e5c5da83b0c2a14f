import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  expectAnswer,
  expectError,
  request,
  type FormSettings,
  type FormView,
} from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { ingestResultOf, postForm, postJson, postMultipart } from '../support/ingest-requests';

// Manage links on the real stack (docs/manage-links.md): shown once and stored hashed, the
// view (HTML, escaped, and JSON), one 404 for every wrong link, edits as versions (spam kept
// aside), the edit window, the unique field, and the delete through the operator's path.

// Three versions a submission at most (MAX_SUBMISSION_VERSIONS), what every test here stays within.
const t = useTestStack({ env: { MAX_SUBMISSION_VERSIONS: '3' } });

const FIELDS: FormSettings['fields'] = [
  { name: 'name', label: 'Your name', type: 'text', required: true },
  { name: 'email', label: 'E-mail address', type: 'email', required: true },
  { name: 'message', label: 'Message', type: 'textarea', required: false },
];
const PAGE = {
  title: 'Conference sign-up',
  description: null,
  submit_label: 'Sign up',
  success_message: 'Thanks!',
};
const JSON_ACCEPT = { accept: 'application/json' };
const HTML_ACCEPT = { accept: 'text/html,application/xhtml+xml' };
const ADA = { name: 'Ada', email: 'ada@example.com', message: 'Hello' };

const manageForm = (extra: FormSettings = {}) =>
  t.api.createForm({
    name: 'Sign-up',
    fields: FIELDS,
    page: PAGE,
    submitter_access: 'edit_delete',
    edit_until: 'P7D',
    ...extra,
  });

/** Posts `fields` as JSON; the submission's id and its manage link. */
async function submit(form: FormView, fields: Record<string, unknown> = ADA) {
  const result = ingestResultOf(await postJson(form.json_url, fields));
  return { id: result.id, link: result.manage_url! };
}

const secretOf = (link: string) => link.split('/').pop()!;
const getLink = (url: string, headers: Record<string, string> = JSON_ACCEPT) =>
  request('GET', url, { headers });
const editByJson = (link: string, fields: Record<string, unknown>) => postJson(link, fields);

async function storedRow(id: string) {
  const [row] = await t.stack.sql<{
    payload_json: Record<string, unknown>;
    manage_key_hash: string | null;
  }>('select payload_json, manage_key_hash from submissions where id = ?', [id]);
  return row;
}

function expectPrivateHeaders(res: { headers: Headers }) {
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('x-robots-tag')).toBe('noindex');
}

describe('the link', () => {
  it('is answered once as manage_url and stored only as its SHA-256', async () => {
    const form = await manageForm();
    const { id, link } = await submit(form);
    expect(link).toMatch(new RegExp(`^${t.stack.url}/s/${id}/[A-Za-z0-9_-]{43}$`));
    const secret = secretOf(link);
    const row = await storedRow(id);
    expect(row?.manage_key_hash).toBe(createHash('sha256').update(secret).digest('base64url'));
    // Nowhere else: not in the stored row's text, nor in what the owner's API shows.
    const [whole] = await t.stack.sql<{ text: string }>(
      'select row_to_json(s)::text as text from submissions s where id = ?',
      [id],
    );
    expect(whole!.text).not.toContain(secret);
    const owner = await t.api.get(`/api/submissions/${id}`);
    expect(owner.text).not.toContain(secret);
  });

  it('is null, and nothing stored, when the form gives no access', async () => {
    const form = await t.api.createForm({ name: 'Plain' });
    expect(form).toMatchObject({ submitter_access: 'none', edit_until: null });
    const result = ingestResultOf(await postJson(form.json_url, ADA));
    expect(result.manage_url).toBeNull();
    expect((await storedRow(result.id))?.manage_key_hash).toBeNull();
  });

  it('is shown on the thank-you page after a browser post, kept out of caches and referrers', async () => {
    const form = await manageForm();
    const posted = await postForm(form.submission_url, ADA, HTML_ACCEPT);
    expect(posted.status).toBe(302);
    const location = posted.headers.get('location')!;
    expect(location).toMatch(/[?&]manage=\d+\.[A-Za-z0-9_-]{43}$/);
    const thanks = await request('GET', new URL(location, t.stack.url), { headers: HTML_ACCEPT });
    expect(thanks.status).toBe(200);
    const token = new URL(location, t.stack.url).searchParams.get('manage')!;
    const [id, secret] = token.split('.');
    expect(thanks.text).toContain(`${t.stack.url}/s/${id}/${secret}`);
    expectPrivateHeaders(thanks);
    // A made-up token shows no link.
    const forged = location.replace(/manage=\d+\./, 'manage=1.');
    const other = await request('GET', new URL(forged, t.stack.url), { headers: HTML_ACCEPT });
    expect(other.text).not.toContain('/s/1/');
  });

  it('settings: refused when not ours, and shown on the Form', async () => {
    const bad = await t.api.post('/api/forms', { name: 'X', submitter_access: 'all' });
    expectError(bad, 422, 'validation_failed');
    for (const edit_until of ['P1M', 'P400D', '7 days', 'PT0M']) {
      const res = await t.api.post('/api/forms', { name: 'X', edit_until });
      expect(expectError(res, 422, 'validation_failed').errors).toEqual(
        expect.arrayContaining([expect.stringMatching(/^edit_until: /)]),
      );
    }
    const form = await manageForm({ edit_until: 'pt12h' });
    expect(form).toMatchObject({ submitter_access: 'edit_delete', edit_until: 'PT12H' });
    const patched = await t.api.patch(`/api/forms/${form.id}`, {
      submitter_access: 'view',
      edit_until: null,
    });
    expect(expectAnswer(patched, 'PATCH /api/forms/{id}', 200).form).toMatchObject({
      submitter_access: 'view',
      edit_until: null,
    });
  });
});

describe('the view', () => {
  it('shows hostile values escaped as a page, and as JSON on request', async () => {
    const form = await manageForm();
    const hostile = {
      name: '<script>alert(1)</script>',
      email: 'eve@example.com',
      message: '"><img src=x onerror=alert(2)>',
    };
    const { id, link } = await submit(form, hostile);
    const page = await getLink(link, HTML_ACCEPT);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expectPrivateHeaders(page);
    expect(page.text).not.toContain('<script>alert(1)');
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.text).toContain('&quot;&gt;&lt;img src=x onerror=alert(2)&gt;');
    expect(page.text).toContain('Your name');

    const json = expectAnswer(await getLink(link), 'GET /s/{submission_id}/{secret}', 200);
    expect(json.submission).toMatchObject({
      id,
      form_id: form.id,
      version: 1,
      values: hostile,
      can_edit: true,
      can_delete: true,
    });
    expect(Date.parse(json.submission.edit_until!)).toBeGreaterThan(Date.now() + 6 * 86_400_000);
  });

  it('answers one 404 for a wrong secret, an unknown id, spam and a form without access', async () => {
    const form = await manageForm();
    const { id, link } = await submit(form);
    const wrong = link.replace(/\/[^/]+$/, `/${'A'.repeat(43)}`);
    const unknown = link.replace(`/s/${id}/`, '/s/999999999999/');
    const malformed = `${link}x`;
    const spam = await submit(form, { ...ADA, email: 'bot@example.com', _hp: 'filled' });
    expect(spam.link).toEqual(expect.any(String));
    const bodies: unknown[] = [];
    for (const url of [wrong, unknown, malformed, spam.link]) {
      const res = await getLink(url);
      bodies.push(expectError(res, 404, 'not_found').message);
      expectPrivateHeaders(res);
      const page = await getLink(url, HTML_ACCEPT);
      expect(page.status).toBe(404);
      expect(page.text).toContain('This link opens nothing');
    }
    expect(new Set(bodies).size).toBe(1);
    // The form stops giving access: its links open nothing.
    await t.api.patch(`/api/forms/${form.id}`, { submitter_access: 'none' });
    expectError(await getLink(link), 404, 'not_found');
  });
});

describe('edits', () => {
  it('make version 2, listed with the kept version 1; the page edit makes version 3', async () => {
    const form = await manageForm();
    const { id, link } = await submit(form);
    const edited = expectAnswer(
      await editByJson(link, { name: 'Ada Lovelace', email: 'ada@example.com', message: 'Bye' }),
      'POST /s/{submission_id}/{secret}',
      200,
    );
    expect(edited.submission).toMatchObject({ version: 2, values: { name: 'Ada Lovelace' } });
    const owner = await t.api.get(`/api/submissions/${id}`);
    expect(owner.body).toMatchObject({ submission: { payload_json: { message: 'Bye' } } });

    const versions = expectAnswer(
      await t.api.get(`/api/submissions/${id}/versions`),
      'GET /api/submissions/{id}/versions',
      200,
    );
    expect(versions.meta.total).toBe(2);
    expect(versions.versions).toMatchObject([
      { version: 1, status: 'superseded', payload: ADA },
      { version: 2, status: 'current', payload: { name: 'Ada Lovelace', message: 'Bye' } },
    ]);

    // The browser's way: the edit page filled in, then a form post, then back to the link.
    const editPage = await getLink(`${link}/edit`, HTML_ACCEPT);
    expect(editPage.status).toBe(200);
    expect(editPage.text).toContain('value="Ada Lovelace"');
    expect(editPage.text).toContain(`action="/s/${id}/${secretOf(link)}"`);
    const posted = await postForm(link, { name: 'Ada K.', email: 'ada@example.com' }, HTML_ACCEPT);
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe(`/s/${id}/${secretOf(link)}?saved=1`);
    const after = expectAnswer(await getLink(link), 'GET /s/{submission_id}/{secret}', 200);
    expect(after.submission).toMatchObject({ version: 3, values: { name: 'Ada K.' } });
  });

  it("go through the form's rules: a refused edit changes nothing and shows the page again", async () => {
    const form = await manageForm();
    const { id, link } = await submit(form);
    const refused = expectError(
      await editByJson(link, { name: '', email: 'nope' }),
      422,
      'validation_failed',
    );
    expect(refused.field_errors).toMatchObject({
      email: expect.any(String),
      name: expect.any(String),
    });
    const page = await postForm(link, { name: 'Ada', email: 'not-an-address' }, HTML_ACCEPT);
    expect(page.status).toBe(422);
    expect(page.text).toContain('value="not-an-address"');
    expect(page.text).toContain('There is a problem');
    expect((await storedRow(id))?.payload_json).toEqual(ADA);
  });

  it('judged spam (a filled honeypot) is kept aside and the earlier version stays', async () => {
    const form = await manageForm();
    const { id, link } = await submit(form);
    const answer = expectAnswer(
      await editByJson(link, { name: 'Spammer', email: 'ada@example.com', _hp: 'http://spam' }),
      'POST /s/{submission_id}/{secret}',
      200,
    );
    expect(answer.submission).toMatchObject({ version: 1, values: ADA });
    expect((await storedRow(id))?.payload_json).toEqual(ADA);
    const versions = expectAnswer(
      await t.api.get(`/api/submissions/${id}/versions`),
      'GET /api/submissions/{id}/versions',
      200,
    );
    expect(versions.versions).toMatchObject([
      { version: 1, status: 'current', payload: ADA },
      { version: 2, status: 'spam', spam_reason: 'honeypot', payload: { name: 'Spammer' } },
    ]);
  });

  it('judged spam by content (markup, as the workflow judges a new submission) stays aside too', async () => {
    const form = await manageForm();
    const { id, link } = await submit(form);
    const spam = { name: '<a href="https://spam.example">cheap</a>', email: 'ada@example.com' };
    const answer = expectAnswer(
      await editByJson(link, spam),
      'POST /s/{submission_id}/{secret}',
      200,
    );
    expect(answer.submission).toMatchObject({ version: 1, values: ADA });
    expect((await storedRow(id))?.payload_json).toEqual(ADA);
    const versions = expectAnswer(
      await t.api.get(`/api/submissions/${id}/versions`),
      'GET /api/submissions/{id}/versions',
      200,
    );
    expect(versions.versions).toMatchObject([
      { version: 1, status: 'current' },
      { version: 2, status: 'spam', spam_reason: 'markup', payload: spam },
    ]);
  });

  it('are refused past edit_until, and for view access, with a clear answer and page', async () => {
    const form = await manageForm({ edit_until: 'PT1M' });
    const { id, link } = await submit(form);
    await t.stack.sql(
      "update submissions set created_at = now() - interval '2 minutes' where id = ?",
      [id],
    );
    const closed = expectError(await editByJson(link, ADA), 403, 'edit_closed');
    expect(closed.message).toMatch(/can no longer be changed/);
    const page = await getLink(`${link}/edit`, HTML_ACCEPT);
    expect(page.status).toBe(403);
    expect(page.text).toContain('This submission can no longer be changed');
    expectError(
      await request('POST', `${link}/delete`, { headers: JSON_ACCEPT }),
      403,
      'edit_closed',
    );
    // Still viewable, saying so.
    const view = expectAnswer(await getLink(link), 'GET /s/{submission_id}/{secret}', 200);
    expect(view.submission).toMatchObject({ can_edit: false, can_delete: false });

    const viewOnly = await manageForm({ submitter_access: 'view' });
    const other = await submit(viewOnly);
    expectError(await editByJson(other.link, ADA), 403, 'edit_closed');
    expect((await storedRow(id))?.payload_json).toEqual(ADA);
  });

  it('stop at MAX_SUBMISSION_VERSIONS, spam versions counted, with 409 limit_reached', async () => {
    const form = await manageForm();
    const { id, link } = await submit(form);
    await editByJson(link, { ...ADA, name: 'Spam', _hp: 'x' });
    expectAnswer(
      await editByJson(link, { ...ADA, name: 'Two' }),
      'POST /s/{submission_id}/{secret}',
      200,
    );
    const refused = expectError(
      await editByJson(link, { ...ADA, name: 'Four' }),
      409,
      'limit_reached',
    );
    expect(refused.message).toMatch(/MAX_SUBMISSION_VERSIONS: 3/);
    expect((await storedRow(id))?.payload_json).toMatchObject({ name: 'Two' });
    const [count] = await t.stack.sql<{ n: number }>(
      'select count(*)::int as n from submission_versions where submission_id = ?',
      [id],
    );
    expect(count!.n).toBe(3);
  });

  it("may not take a unique field's value another submission holds", async () => {
    const form = await manageForm({ limits: { unique_field: 'email' } });
    await submit(form, { ...ADA, email: 'grace@example.com' });
    const { link } = await submit(form);
    const refused = expectError(
      await editByJson(link, { ...ADA, email: 'Grace@example.com' }),
      409,
      'already_submitted',
    );
    expect(refused.field_errors).toEqual({
      email: 'was already used for a submission of this form: each can be sent once',
    });
    // From the edit page: shown again, the problem beside the e-mail field.
    const again = await postForm(link, { ...ADA, email: 'grace@example.com' }, HTML_ACCEPT);
    expect(again.status).toBe(409);
    expect(again.text).toContain(
      '<a href="#f1">E-mail address: was already used for a submission of this form: each can be sent once</a>',
    );
    expect(again.text).toMatch(/<p class="error" id="f1-error">.*was already used/);
    // Its own value, and a free one, are fine; the old one is then free again.
    expectAnswer(
      await editByJson(link, { ...ADA, message: 'x' }),
      'POST /s/{submission_id}/{secret}',
      200,
    );
    expectAnswer(
      await editByJson(link, { ...ADA, email: 'ada2@example.com' }),
      'POST /s/{submission_id}/{secret}',
      200,
    );
    ingestResultOf(await postJson(form.json_url, ADA));
  });
});

describe("in the page's language", () => {
  it('every page of the link, dates in UTC; a wrong link stays English', async () => {
    const form = await manageForm({ page: { ...PAGE, language: 'de' } });
    const posted = await postForm(form.submission_url, ADA, HTML_ACCEPT);
    const thanks = await request('GET', new URL(posted.headers.get('location')!, t.stack.url), {
      headers: HTML_ACCEPT,
    });
    expect(thanks.text).toContain('<strong>Ihr Link zu dieser Einsendung:</strong>');
    expect(thanks.text).not.toContain('Keep this private link');
    const { link } = await submit(form);

    const view = await getLink(link, HTML_ACCEPT);
    expect(view.text).toContain('<html lang="de" dir="ltr">');
    expect(view.text).toContain('<h2>Ihre Einsendung</h2>');
    expect(view.text).toMatch(
      /Eingegangen: \d{1,2}\. [A-Za-zä]+ \d{4} um \d{2}:\d{2} \(UTC\); Version 1/,
    );
    expect(view.text).toMatch(
      /Sie können sie bis \d{1,2}\. [A-Za-zä]+ \d{4} um \d{2}:\d{2} \(UTC\) ändern oder löschen\./,
    );
    expect(view.text).toContain('>Ihre Angaben ändern</a>');
    expect(view.text).toContain('>Diese Einsendung löschen</a>');
    const saved = await getLink(`${link}?saved=1`, HTML_ACCEPT);
    expect(saved.text).toContain('<p>Ihre Änderungen wurden gespeichert.</p>');

    const edit = await getLink(`${link}/edit`, HTML_ACCEPT);
    expect(edit.text).toContain('<html lang="de" dir="ltr">');
    expect(edit.text).toContain('<button type="submit">Änderungen speichern</button>');

    const confirm = await getLink(`${link}/delete`, HTML_ACCEPT);
    expect(confirm.text).toContain('<h1>Ihre Einsendung löschen?</h1>');
    expect(confirm.text).toContain('<button type="submit">Endgültig löschen</button>');
    const deleted = await request('POST', `${link}/delete`, { headers: HTML_ACCEPT });
    expect(deleted.text).toContain('<h1>Ihre Einsendung wurde gelöscht</h1>');

    // The link now opens nothing, and no form says which language: English.
    const gone = await getLink(link, HTML_ACCEPT);
    expect(gone.status).toBe(404);
    expect(gone.text).toContain('<html lang="en" dir="ltr">');
    expect(gone.text).toContain('<h1>Nothing here</h1>');
  });

  it('right to left in Arabic, and the closed page in the language', async () => {
    const form = await manageForm({
      page: { ...PAGE, language: 'ar' },
      submitter_access: 'view',
    });
    const { link } = await submit(form);
    const view = await getLink(link, HTML_ACCEPT);
    expect(view.text).toContain('<html lang="ar" dir="rtl">');
    expect(view.text).toContain('<h2>إجاباتك</h2>');
    const closed = await getLink(`${link}/edit`, HTML_ACCEPT);
    expect(closed.status).toBe(403);
    expect(closed.text).toContain('<h1>لم يعد بالإمكان تعديل هذه الإجابات</h1>');
  });
});

describe('deletes', () => {
  it('remove the submission with its files and versions, with an audit entry naming the submitter', async () => {
    const form = await manageForm({
      accept_files: true,
      fields: [...FIELDS!, { name: 'cv', label: 'CV', type: 'file', required: false }],
    });
    const posted = await postMultipart(
      form.submission_url,
      [
        { name: 'name', value: 'Ada' },
        { name: 'email', value: 'ada@example.com' },
        { name: 'cv', filename: 'cv.txt', contentType: 'text/plain', content: 'hello' },
      ],
      JSON_ACCEPT,
    );
    const { id, manage_url: link } = ingestResultOf(posted);
    const files = () =>
      t.stack.sql<{ n: number }>(
        'select count(*)::int as n from submission_files where submission_id = ?',
        [id],
      );
    expect((await files())[0]!.n).toBe(1);
    // An edit keeps the file.
    expectAnswer(await editByJson(link!, ADA), 'POST /s/{submission_id}/{secret}', 200);
    expect((await storedRow(id))?.payload_json.cv).toMatchObject({ filename: 'cv.txt' });

    const confirm = await getLink(`${link}/delete`, HTML_ACCEPT);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain(`action="/s/${id}/${secretOf(link!)}/delete"`);
    const deleted = await request('POST', `${link}/delete`, { headers: HTML_ACCEPT });
    expect(deleted.status).toBe(200);
    expect(deleted.text).toContain('Your submission was deleted');
    expect(await storedRow(id)).toBeUndefined();
    expect((await files())[0]!.n).toBe(0);
    const [versions] = await t.stack.sql<{ n: number }>(
      'select count(*)::int as n from submission_versions where submission_id = ?',
      [id],
    );
    expect(versions!.n).toBe(0);
    const audit = await t.api.get(`/api/audit_log?action=submission.deleted&target_id=${id}`);
    expect(audit.body).toMatchObject({
      audit_events: [
        {
          action: 'submission.deleted',
          actor: { type: 'submitter', label: `submitter of submission ${id}` },
          target: { type: 'submission', id },
        },
      ],
    });
    expectError(await getLink(link!), 404, 'not_found');
  });
});
