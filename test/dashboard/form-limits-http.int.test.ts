import { describe, expect, it } from 'vitest';
import { expectAnswer, request } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { postForm } from '../support/ingest-requests';
import { openAppSession } from './dashboard-support';

// A form's limits on its dashboard settings page (docs/form-limits.md): shown, refused with
// the API's own problems at their inputs, saved, and removed by emptying them.

const t = useTestStack({
  form: {
    name: 'Meetup',
    fields: [
      { name: 'email', label: 'E-mail address', type: 'email', required: true },
      { name: 'team', label: 'Team', type: 'text', required: false },
    ],
  },
});

describe('the settings page', () => {
  it('edits the limits with the API validation', async () => {
    const session = await openAppSession(t.stack.url, t.email, t.password);
    const page = `${t.stack.url}/app/forms/${t.form.id}`;
    const shown = await request('GET', `${page}/settings`, { cookie: session.cookie });
    expect(shown.status).toBe(200);
    for (const name of [
      'max_submissions',
      'opens_at',
      'closes_at',
      'unique_field',
      'closed_message',
    ])
      expect(shown.text).toContain(`name="${name}"`);
    expect(shown.text).toContain('<option value="email">E-mail address (email)</option>');

    const base = { _csrf: session.csrf, name: 'Meetup', is_active: 'on' };
    const post = (fields: Record<string, string>) =>
      postForm(page, { ...base, ...fields }, { cookie: session.cookie });
    const backwards = await post({
      opens_at: '2027-02-01T00:00:00Z',
      closes_at: '2027-01-01T00:00:00Z',
    });
    expect(backwards.status).toBe(422);
    expect(backwards.text).toContain('must be after opens_at');
    const notAField = await post({ unique_field: 'phone' });
    expect(notAField.status).toBe(422);
    expect(notAField.text).toContain('must name a field of the form');

    const saved = await post({
      max_submissions: '50',
      closes_at: '2027-01-01T10:00:00+01:00',
      unique_field: 'email',
      closed_message: 'Sold out, sorry.',
    });
    expect(saved.status).toBe(303);
    const read = async () =>
      expectAnswer(await t.api.get(`/api/forms/${t.form.id}`), 'GET /api/forms/{id}', 200).form;
    expect((await read()).limits).toEqual({
      max_submissions: 50,
      opens_at: null,
      closes_at: '2027-01-01T09:00:00.000Z',
      unique_field: 'email',
      closed_message: 'Sold out, sorry.',
    });
    const again = await request('GET', `${page}/settings`, { cookie: session.cookie });
    expect(again.text).toContain('value="2027-01-01T09:00:00.000Z"');
    expect(again.text).toContain('<option value="email" selected>');

    expect((await post({})).status).toBe(303);
    expect((await read()).limits).toBeNull();
  });
});
