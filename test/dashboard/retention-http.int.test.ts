import { describe, expect, it } from 'vitest';
import { expectAnswer, request } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { postForm } from '../support/ingest-requests';
import { openAppSession } from './dashboard-support';

// A form's retention on its dashboard page while Temporal cannot be reached (docs/retention.md):
// the page still answers, says the next purge is unknown, and saves the settings, with the
// API's validation.

const t = useTestStack({ temporalAddress: '127.0.0.1:1', form: { name: 'Away' } });

describe('the form page without Temporal', () => {
  it('shows the policy, the next purge as unknown, and saves the settings', async () => {
    const session = await openAppSession(t.stack.url, t.email, t.password);
    const page = `${t.stack.url}/app/forms/${t.form.id}`;
    const started = Date.now();
    const shown = await request('GET', `${page}/settings`, { cookie: session.cookie });
    expect(shown.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(shown.text).toContain(
      '<dt>Next purge</dt><dd>unknown (Temporal is not reachable now)</dd>',
    );
    expect(shown.text).toContain('<dt>Submissions kept</dt><dd>for ever</dd>');

    const settings = { _csrf: session.csrf, name: 'Away', retention_days: '3651' };
    const refused = await postForm(page, settings, { cookie: session.cookie });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('must be at most 3650 days (null: keep for ever)');

    const saved = await postForm(
      page,
      { ...settings, retention_days: '14', delete_after_delivery: 'on' },
      { cookie: session.cookie },
    );
    expect(saved.status).toBe(303);
    const form = expectAnswer(
      await t.api.get(`/api/forms/${t.form.id}`),
      'GET /api/forms/{id}',
      200,
    ).form;
    expect(form).toMatchObject({ retention_days: 14, delete_after_delivery: true });
    const again = await request('GET', `${page}/settings`, { cookie: session.cookie });
    expect(again.text).toContain('<dt>Submissions kept</dt><dd>14 days</dd>');
  });
});
