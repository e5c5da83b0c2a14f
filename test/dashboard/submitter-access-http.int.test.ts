import { describe, expect, it } from 'vitest';
import { expectAnswer, request } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { ingestResultOf, postForm, postJson } from '../support/ingest-requests';
import { openAppSession } from './dashboard-support';

// Manage links in the dashboard (docs/manage-links.md): the settings page's Submitter access
// (shown, refused with the API's own problem at its input, saved), and a submission's
// versions on its page.

const t = useTestStack({
  form: {
    name: 'Sign-up',
    fields: [
      { name: 'name', label: 'Your name', type: 'text', required: true },
      { name: 'email', label: 'E-mail address', type: 'email', required: true },
    ],
  },
});

describe('the dashboard', () => {
  it('edits submitter_access and edit_until with the API validation', async () => {
    const session = await openAppSession(t.stack.url, t.email, t.password);
    const page = `${t.stack.url}/app/forms/${t.form.id}`;
    const shown = await request('GET', `${page}/settings`, { cookie: session.cookie });
    expect(shown.text).toContain('name="submitter_access"');
    expect(shown.text).toContain('name="edit_until"');
    const base = { _csrf: session.csrf, name: 'Sign-up', is_active: 'on' };
    const post = (fields: Record<string, string>) =>
      postForm(page, { ...base, ...fields }, { cookie: session.cookie });

    const refused = await post({ submitter_access: 'edit', edit_until: 'two weeks' });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('must be an ISO 8601 duration');
    expect((await post({ submitter_access: 'edit', edit_until: 'P14D' })).status).toBe(303);
    const read = async () =>
      expectAnswer(await t.api.get(`/api/forms/${t.form.id}`), 'GET /api/forms/{id}', 200).form;
    expect(await read()).toMatchObject({ submitter_access: 'edit', edit_until: 'P14D' });
    const again = await request('GET', `${page}/settings`, { cookie: session.cookie });
    expect(again.text).toContain('<option value="edit" selected>');
    expect(again.text).toContain('value="P14D"');
  });

  it("lists a submission's versions on its page", async () => {
    await t.api.patch(`/api/forms/${t.form.id}`, { submitter_access: 'edit', edit_until: null });
    const result = ingestResultOf(
      await postJson(t.form.json_url, { name: 'Ada', email: 'ada@example.com' }),
    );
    const session = await openAppSession(t.stack.url, t.email, t.password);
    const before = await request('GET', `${t.stack.url}/app/submissions/${result.id}`, {
      cookie: session.cookie,
    });
    expect(before.text).not.toContain('id="versions"');
    await postJson(result.manage_url!, { name: 'Ada Lovelace', email: 'ada@example.com' });
    const after = await request('GET', `${t.stack.url}/app/submissions/${result.id}`, {
      cookie: session.cookie,
    });
    expect(after.text).toContain('id="versions"');
    expect(after.text).toContain('Version 1: superseded');
    expect(after.text).toContain('Version 2: current');
    expect(after.text).toContain('Ada Lovelace');
  });
});
