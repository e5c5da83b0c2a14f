import { describe, expect, it } from 'vitest';
import { expectAnswer, request } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { postForm } from '../support/ingest-requests';
import { type AppSession, openAppSession } from './dashboard-support';

// The field builder of a form's dashboard page over plain HTTP (forms/form-builder-pages.ts): add,
// edit, move and remove fields, each checked as PATCH /api/forms/{id} checks the whole list
// and recorded in the audit log; a refused list leaves the stored one as it was; the page
// settings with the contrast check; the QR code of the page's link; viewers only look.

const t = useTestStack();

const readForm = async (id: string) =>
  expectAnswer(await t.api.get(`/api/forms/${id}`), 'GET /api/forms/{id}', 200).form;

const openApp = () => openAppSession(t.stack.url, t.email, t.password);
const get = (session: { cookie: string }, path: string) =>
  request('GET', `${t.stack.url}${path}`, { cookie: session.cookie });
const post = (
  session: AppSession,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) =>
  postForm(
    `${t.stack.url}${path}`,
    { _csrf: session.csrf, ...fields },
    { cookie: session.cookie, ...headers },
  );

const updates = (formId: string) =>
  t.stack.sql<{ summary: string; actor_label: string }>(
    `select summary, actor_label from audit_events
      where account_id = ? and action = 'form.updated' and target_id = ? order by id`,
    [t.accountId, formId],
  );

const field = (values: Record<string, string>) => ({ type: 'text', ...values });

describe('the field builder', () => {
  it('adds, edits, moves and removes fields; each change is saved and audited like the API', async () => {
    const session = await openApp();
    const form = await t.api.createForm({ name: 'Built' });
    const fields = `/app/forms/${form.id}/fields`;

    const added = await post(session, fields, {
      intent: 'add',
      ...field({ label: 'Your <b>name</b>', required: 'on', max_length: '80' }),
    });
    expect(added.status, added.text).toBe(303);
    expect(added.headers.get('location')).toBe(fields);
    for (const extra of [
      field({ intent: 'add', label: 'E-mail', name: 'email', type: 'email', required: 'on' }),
      field({
        intent: 'add',
        label: 'Topic',
        type: 'select',
        options: 'Sales\nSupport, billing\n',
      }),
    ])
      expect((await post(session, fields, extra)).status).toBe(303);
    expect((await readForm(form.id)).fields).toEqual([
      {
        name: 'your_b_name_b',
        label: 'Your <b>name</b>',
        type: 'text',
        required: true,
        max_length: 80,
      },
      { name: 'email', label: 'E-mail', type: 'email', required: true },
      {
        name: 'topic',
        label: 'Topic',
        type: 'select',
        required: false,
        options: ['Sales', 'Support, billing'],
      },
    ]);

    // The page lists them, the label escaped; the editor opens on one with its values.
    const editor = await get(session, `${fields}?edit=topic`);
    expect(editor.status).toBe(200);
    expect(editor.text).toContain('<td>Your &lt;b&gt;name&lt;/b&gt;</td>');
    expect(editor.text).not.toContain('Your <b>name</b>');
    expect(editor.text).toContain('Edit the field “topic”');
    expect(editor.text).toContain('Sales\nSupport, billing</textarea>');

    const saved = await post(session, fields, {
      intent: 'save',
      target: 'topic',
      ...field({ label: 'Subject', name: 'subject', type: 'radio', options: 'Sales\nSupport' }),
    });
    expect(saved.status, saved.text).toBe(303);
    expect((await post(session, fields, { intent: 'up', target: 'subject' })).status).toBe(303);
    expect((await post(session, fields, { intent: 'remove', target: 'email' })).status).toBe(303);
    expect((await readForm(form.id)).fields).toEqual([
      {
        name: 'your_b_name_b',
        label: 'Your <b>name</b>',
        type: 'text',
        required: true,
        max_length: 80,
      },
      {
        name: 'subject',
        label: 'Subject',
        type: 'radio',
        required: false,
        options: ['Sales', 'Support'],
      },
    ]);
    // Moving the first field up changes nothing, and writes no entry.
    expect((await post(session, fields, { intent: 'up', target: 'your_b_name_b' })).status).toBe(
      303,
    );

    expect(await updates(form.id)).toEqual(
      Array.from({ length: 6 }, () => ({ summary: 'changed fields', actor_label: t.email })),
    );

    // The last field removed: the form is free-form again, as before fields existed.
    for (const target of ['your_b_name_b', 'subject'])
      expect((await post(session, fields, { intent: 'remove', target })).status).toBe(303);
    expect((await readForm(form.id)).fields).toBeNull();
  });

  it('refuses an invalid list whole, shows each problem beside its input with the values kept', async () => {
    const session = await openApp();
    const form = await t.api.createForm({ name: 'Strict' });
    const fields = `/app/forms/${form.id}/fields`;
    await post(
      session,
      fields,
      field({ intent: 'add', label: 'E-mail', name: 'email', type: 'email' }),
    );
    const before = await readForm(form.id);
    const entries = (await updates(form.id)).length;

    const refusals: [Record<string, string>, string, string][] = [
      [
        field({ label: 'Again', name: 'email' }),
        'name',
        '&quot;email&quot; is used by an earlier field',
      ],
      [field({ label: 'Pick', type: 'select' }), 'options', 'are required for a select field'],
      [field({ label: 'Age', type: 'number', min: 'ten' }), 'min', 'must be a number'],
      [field({ label: 'Bad', name: '_hp' }), 'name', 'is reserved'],
      [field({ label: 'CV', type: 'file', accept: '.pdf' }), 'type', 'does not accept files'],
      [
        field({ label: 'Short', type: 'number', max_length: '5' }),
        'max_length',
        'is only for text',
      ],
    ];
    for (const [values, input, message] of refusals) {
      const refused = await post(session, fields, { intent: 'add', ...values });
      expect(refused.status, message).toBe(422);
      const beside = new RegExp(
        `id="field-error-${input}" role="alert">[^<]*${escapeRegExp(message)}`,
      );
      expect(refused.text, message).toMatch(beside);
      expect(refused.text).toContain(
        `name="label" maxlength="200" required value="${values.label}"`,
      );
    }
    // An edit of a field another tab removed: nothing changes, the list is shown as it is.
    const stale = await post(session, fields, { intent: 'remove', target: 'gone' });
    expect(stale.status).toBe(409);
    expect(stale.text).toContain('There is no field named “gone” any more');

    expect(await readForm(form.id)).toEqual(before);
    expect(await updates(form.id)).toHaveLength(entries);
  });

  it('answers htmx with the page at once: the builder with its notice, the address pushed', async () => {
    const session = await openApp();
    const form = await t.api.createForm({ name: 'Swapped' });
    const htmx = { 'hx-request': 'true' };
    const path = `/app/forms/${form.id}/fields`;
    const added = await post(session, path, field({ intent: 'add', label: 'Name' }), htmx);
    expect(added.status).toBe(200);
    expect(added.headers.get('hx-push-url')).toBe(path);
    expect(added.text).toContain('<p class="flash flash-ok" role="status">Field added.</p>');
    expect(added.text).toMatch(/<div id="field-builder"[^>]*>[\s\S]*<td>Name<\/td>/);
    const refused = await post(session, path, field({ intent: 'add', label: 'Name' }), htmx);
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('&quot;name&quot; is used by an earlier field');
  });

  it('sets the page: a colour below AA contrast is refused with a suggestion; then the link and QR code', async () => {
    const session = await openApp();
    const form = await t.api.createForm({ name: 'Paged' });
    const page = `/app/forms/${form.id}/page`;
    expect((await get(session, `/app/forms/${form.id}/qr.svg`)).status).toBe(404);
    const share = await get(session, `/app/forms/${form.id}/share`);
    expect(share.text).toContain('it needs fields and page settings');

    const settings = {
      title: 'Contact <us>',
      description: 'First paragraph.\n\nSecond.',
      submit_label: 'Send it',
      success_message: '',
      accent_color: '#FFCC00',
    };
    const refused = await post(session, page, settings);
    expect(refused.status).toBe(422);
    expect(refused.text).toMatch(
      /id="page-error-accent_color" role="alert">Accent colour: contrast with white is 1\.\d\d:1, below the 4\.5:1[^<]*#[0-9a-f]{6} is the same hue dark enough/,
    );
    expect(refused.text).toContain('value="Contact &lt;us&gt;"');
    expect((await readForm(form.id)).page).toBeNull();

    const saved = await post(session, page, {
      ...settings,
      accent_color: '#2450C8',
      language: 'de',
    });
    expect(saved.status).toBe(303);
    const fields = `/app/forms/${form.id}/fields`;
    const builder = await get(session, fields);
    expect(builder.text).toContain('The page is not served yet: it needs at least one field.');
    // The page's language, each by its own name (docs/languages.md).
    expect(builder.text).toContain('<option value="de" lang="de" selected>Deutsch</option>');
    expect(builder.text).toContain('<option value="ar" lang="ar">العربية</option>');
    await post(
      session,
      fields,
      field({ intent: 'add', label: 'Message', type: 'textarea', required: 'on' }),
    );
    const stored = await readForm(form.id);
    expect(stored.page).toEqual({
      title: 'Contact <us>',
      description: 'First paragraph.\n\nSecond.',
      submit_label: 'Send it',
      success_message: 'Thank you! Your submission has been received.',
      accent_color: '#2450c8',
      language: 'de',
    });
    expect(stored.page_url).toBe(`${t.stack.url}/f/${stored.endpoint_token}`);
    expect(await updates(form.id)).toEqual([
      { summary: 'changed page', actor_label: t.email },
      { summary: 'changed fields', actor_label: t.email },
    ]);

    const shared = await get(session, `/app/forms/${form.id}/share`);
    expect(shared.text).toContain(`<code class="code" id="page-url">${stored.page_url}</code>`);
    expect(shared.text).toContain(`<img src="/app/forms/${form.id}/qr.svg"`);
    const qr = await get(session, `/app/forms/${form.id}/qr.svg`);
    expect(qr.status).toBe(200);
    expect(qr.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(qr.text).toMatch(
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[\s\S]*<path[\s\S]*<\/svg>\s*$/,
    );
    const download = await get(session, `/app/forms/${form.id}/qr.svg?download=1`);
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename=form-${form.id}-page-qr.svg`,
    );

    // Removing the page: its link is gone from the form.
    expect((await post(session, page, { intent: 'remove' })).status).toBe(303);
    expect((await readForm(form.id)).page_url).toBeNull();
  });

  it('saves what happens to names outside the list', async () => {
    const session = await openApp();
    const form = await t.api.createForm({ name: 'Unknowns' });
    const path = `/app/forms/${form.id}/fields/unknown`;
    expect((await post(session, path, { unknown_fields: 'sometimes' })).status).toBe(422);
    expect((await post(session, path, { unknown_fields: 'reject' })).status).toBe(303);
    expect((await readForm(form.id)).unknown_fields).toBe('reject');
    expect(await updates(form.id)).toEqual([
      { summary: 'changed unknown_fields', actor_label: t.email },
    ]);
  });

  it('shows a viewer the list and the preview without controls, and refuses their posts', async () => {
    const form = await t.api.createForm({
      name: 'Looked at',
      fields: [{ name: 'email', label: 'E-mail', type: 'email', required: true }],
    });
    const viewer = await t.stack.addMember(t.accountId, 'viewer');
    const page = await get(viewer, `/app/forms/${form.id}/fields`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<td>E-mail</td>');
    expect(page.text).toContain('id="preview"');
    for (const control of ['Add the field', 'name="intent"', 'Save the page', 'Danger zone'])
      expect(page.text, control).not.toContain(control);
    const refused = await post(viewer, `/app/forms/${form.id}/fields`, {
      intent: 'remove',
      target: 'email',
    });
    expect(refused.status).toBe(403);
    expect((await readForm(form.id)).fields).toHaveLength(1);
    expect(await updates(form.id)).toEqual([]);
  });
});

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
