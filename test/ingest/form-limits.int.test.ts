import { describe, expect, it } from 'vitest';
import { recordSpamVerdict } from '../../src/db/sql/submissions';
import { markSubmissionSpam } from '../../src/domain/submissions/submission-changes';
import {
  expectAnswer,
  expectError,
  expectValidationError,
  type FormSettings,
  type FormView,
} from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { ingestResultOf, postForm, postJson } from '../support/ingest-requests';

// A form's gates (docs/form-limits.md): max_submissions exact under concurrent posts, the
// opens_at/closes_at window on both ingest endpoints, unique_field, spam that never counts,
// the Form's submission_count and open, and the hosted page's closed message.

const t = useTestStack();

const FIELDS: FormSettings['fields'] = [
  { name: 'email', label: 'E-mail address', type: 'email', required: true },
  { name: 'team', label: 'Team', type: 'text', required: false },
];
const PAGE = {
  title: 'Spring meetup',
  description: null,
  submit_label: 'Register',
  success_message: 'See you there!',
};
const HOUR_MS = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const JSON_ACCEPT = { Accept: 'application/json' };
const HTML_ACCEPT = { Accept: 'text/html,application/xhtml+xml' };

const gatedForm = (limits: FormSettings['limits'], extra: FormSettings = {}) =>
  t.api.createForm({ name: 'Meetup', fields: FIELDS, limits, ...extra });

/** Accepted (non-spam) rows stored for a form. */
async function acceptedRows(formId: string): Promise<number> {
  const [row] = await t.stack.sql<{ n: number }>(
    'select count(*)::int as n from submissions where form_id = ? and not is_spam',
    [formId],
  );
  return row!.n;
}

async function readForm(form: FormView): Promise<FormView> {
  return expectAnswer(await t.api.get(`/api/forms/${form.id}`), 'GET /api/forms/{id}', 200).form;
}

/** The workflow's spam check finding a stored submission to be spam (its recorded verdict). */
async function markSpamByCheck(submissionId: string) {
  const stored = await recordSpamVerdict(t.stack.ctx.orm.em.fork(), submissionId, 'content');
  expect(stored?.isSpam).toBe(true);
}

describe('limits on POST and PATCH /api/forms', () => {
  it('are null by default, stored with times in UTC, and shown with submission_count and open', async () => {
    const plain = await t.api.createForm();
    expect(plain.limits).toBeNull();
    expect(plain.open).toBe(true);

    const form = await gatedForm({
      max_submissions: 2,
      opens_at: '2020-01-31T09:00:00+01:00',
      unique_field: 'email',
    });
    expect(form.limits).toEqual({
      max_submissions: 2,
      opens_at: '2020-01-31T08:00:00.000Z',
      closes_at: null,
      unique_field: 'email',
      closed_message: null,
    });
    expect(form).toMatchObject({ submission_count: 0, open: true });

    ingestResultOf(await postJson(form.json_url, { email: 'one@example.com' }));
    expect(await readForm(form)).toMatchObject({ submission_count: 1, open: true });
    ingestResultOf(await postJson(form.json_url, { email: 'two@example.com' }));
    expect(await readForm(form)).toMatchObject({ submission_count: 2, open: false });

    const later = await t.api.patch(`/api/forms/${form.id}`, {
      limits: { closes_at: at(-HOUR_MS) },
    });
    const patched = expectAnswer(later, 'PATCH /api/forms/{id}', 200).form;
    expect(patched.limits?.max_submissions).toBeNull();
    expect(patched.open).toBe(false);
    const removed = await t.api.patch(`/api/forms/${form.id}`, { limits: null });
    expect(expectAnswer(removed, 'PATCH /api/forms/{id}', 200).form).toMatchObject({
      limits: null,
      open: true,
    });
  });

  it('refuses bad limits with a field: message problem', async () => {
    const form = await gatedForm(null);
    const patch = (limits: unknown) => t.api.patch(`/api/forms/${form.id}`, { limits });
    expectValidationError(
      await patch({ opens_at: at(2 * HOUR_MS), closes_at: at(HOUR_MS) }),
      'limits.closes_at',
    );
    expectValidationError(await patch({ opens_at: 'next tuesday' }), 'limits.opens_at');
    expectValidationError(await patch({ opens_at: '2027-01-31T09:00:00' }), 'limits.opens_at');
    expectValidationError(await patch({ max_submissions: 0 }), 'limits.max_submissions');
    expectValidationError(await patch({ max_submissions: 2.5 }), 'limits.max_submissions');
    expectValidationError(await patch({ max_submissions: 100_001 }), 'limits.max_submissions');
    expectValidationError(
      await patch({ closed_message: 'x'.repeat(2001) }),
      'limits.closed_message',
    );
    expectValidationError(await patch({ unique_field: 'phone' }), 'limits.unique_field');
    expectValidationError(await patch({ max_submisions: 3 }), 'limits');
    // A field list without the unique field is refused as well.
    const unique = await gatedForm({ unique_field: 'team' });
    expectValidationError(
      await t.api.patch(`/api/forms/${unique.id}`, { fields: [FIELDS![0]] }),
      'limits.unique_field',
    );
    expectValidationError(
      await t.api.post('/api/forms', { name: 'Free-form', limits: { unique_field: 'email' } }),
      'limits.unique_field',
    );
  });
});

describe('max_submissions', () => {
  it('stores exactly the limit of 40 concurrent posts; the others answer form_closed', async () => {
    const form = await gatedForm({ max_submissions: 10 });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0
          ? postJson(form.json_url, { email: `p${i}@example.com` })
          : postForm(form.submission_url, { email: `p${i}@example.com` }, JSON_ACCEPT),
      ),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 403)).toHaveLength(30);
    for (const res of answers.filter((r) => r.status === 403)) {
      const body = expectError(res, 403, 'form_closed');
      expect(body).toMatchObject({ opens_at: null, closes_at: null });
    }
    expect(await acceptedRows(form.id)).toBe(10);
    expect(await readForm(form)).toMatchObject({ submission_count: 10, open: false });
  });
});

describe('the window', () => {
  it('answers form_closed before opens_at on /json and /f, with the window, and stores nothing', async () => {
    const opensAt = at(HOUR_MS);
    const form = await gatedForm({ opens_at: opensAt, closed_message: 'Registration opens soon.' });
    const json = expectError(
      await postJson(form.json_url, { email: 'a@example.com' }),
      403,
      'form_closed',
    );
    expect(json).toMatchObject({
      message: 'Registration opens soon.',
      opens_at: opensAt,
      closes_at: null,
    });
    const html = expectError(
      await postForm(form.submission_url, { email: 'a@example.com' }, JSON_ACCEPT),
      403,
      'form_closed',
    );
    expect(html.opens_at).toBe(opensAt);
    const browser = await postForm(form.submission_url, { email: 'a@example.com' }, HTML_ACCEPT);
    expect(browser.status).toBe(403);
    expect(browser.text).toContain('Registration opens soon.');
    expect(await acceptedRows(form.id)).toBe(0);
    expect(form.open).toBe(false);
  });

  it('answers form_closed from closes_at on /json and /f', async () => {
    const closesAt = at(-HOUR_MS);
    const form = await gatedForm({ closes_at: closesAt });
    const json = expectError(
      await postJson(form.json_url, { email: 'a@example.com' }),
      403,
      'form_closed',
    );
    expect(json).toMatchObject({ opens_at: null, closes_at: closesAt });
    expect(json.message).toMatch(/closed/);
    expectError(
      await postForm(form.submission_url, { email: 'a@example.com' }, JSON_ACCEPT),
      403,
      'form_closed',
    );
    expect(await acceptedRows(form.id)).toBe(0);
  });

  it('takes posts inside the window', async () => {
    const form = await gatedForm({ opens_at: at(-HOUR_MS), closes_at: at(HOUR_MS) });
    ingestResultOf(await postJson(form.json_url, { email: 'a@example.com' }));
    ingestResultOf(await postForm(form.submission_url, { email: 'b@example.com' }, JSON_ACCEPT));
    expect(await acceptedRows(form.id)).toBe(2);
  });
});

describe('unique_field', () => {
  it('an email field: a repeat in another case or with spaces is 409 already_submitted', async () => {
    const form = await gatedForm({ unique_field: 'email' });
    ingestResultOf(await postJson(form.json_url, { email: '  Ada@Example.com ' }));
    const repeat = expectError(
      await postJson(form.json_url, { email: 'ada@example.COM' }),
      409,
      'already_submitted',
    );
    // The message as before, and the field's problem by its name (English by default).
    expect(repeat.message).toBe(
      'a submission with this email was already accepted; each email may send one',
    );
    expect(repeat.errors).toBeUndefined();
    expect(repeat.field_errors).toEqual({
      email: 'was already used for a submission of this form: each can be sent once',
    });
    // In the supported language Accept-Language asks for, as validation_failed's.
    const german = expectError(
      await postJson(
        form.json_url,
        { email: 'ADA@example.com' },
        { 'Accept-Language': 'de-AT, en;q=0.5' },
      ),
      409,
      'already_submitted',
    );
    expect(german.field_errors).toEqual({
      email:
        'Dieser Wert wurde für dieses Formular bereits verwendet. Jeder Wert kann nur einmal gesendet werden.',
    });
    expectError(
      await postForm(form.submission_url, { email: ' ada@example.com' }, JSON_ACCEPT),
      409,
      'already_submitted',
    );
    ingestResultOf(await postJson(form.json_url, { email: 'grace@example.com' }));
    expect(await acceptedRows(form.id)).toBe(2);
  });

  it('a text field: compared trimmed, case kept; concurrent repeats store one', async () => {
    const form = await gatedForm({ unique_field: 'team' });
    ingestResultOf(await postJson(form.json_url, { email: 'a@example.com', team: ' Blue ' }));
    expectError(
      await postJson(form.json_url, { email: 'b@example.com', team: 'Blue' }),
      409,
      'already_submitted',
    );
    ingestResultOf(await postJson(form.json_url, { email: 'c@example.com', team: 'blue' }));
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        postJson(form.json_url, { email: `r${i}@example.com`, team: 'Red' }),
      ),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([200, ...Array(7).fill(409)]);
    expect(await acceptedRows(form.id)).toBe(3);
  });
});

describe('spam never counts', () => {
  it('a filled honeypot looks like success and takes neither a place nor the value', async () => {
    const form = await gatedForm({ max_submissions: 1, unique_field: 'email' });
    ingestResultOf(await postJson(form.json_url, { email: 'ada@example.com', _hp: 'bot' }));
    ingestResultOf(await postJson(form.json_url, { email: 'ada@example.com', _hp: 'bot' }));
    expect(await readForm(form)).toMatchObject({ submission_count: 0, open: true });
    ingestResultOf(await postJson(form.json_url, { email: 'ada@example.com' }));
    expectError(await postJson(form.json_url, { email: 'bob@example.com' }), 403, 'form_closed');
  });

  it('a submission the spam check marks as spam gives back its place and its value', async () => {
    const form = await gatedForm({ max_submissions: 1, unique_field: 'email' });
    const first = ingestResultOf(await postJson(form.json_url, { email: 'ada@example.com' }));
    expectError(await postJson(form.json_url, { email: 'bob@example.com' }), 403, 'form_closed');
    await markSpamByCheck(first.id);
    expect(await readForm(form)).toMatchObject({ submission_count: 0, open: true });
    // The same address again: its value was let go with the place.
    ingestResultOf(await postJson(form.json_url, { email: 'ada@example.com' }));
    expectError(await postJson(form.json_url, { email: 'bob@example.com' }), 403, 'form_closed');
  });
});

describe('spam marked in the dashboard', () => {
  it('gives back the place and the value too', async () => {
    const form = await gatedForm({ max_submissions: 1, unique_field: 'email' });
    const first = ingestResultOf(await postJson(form.json_url, { email: 'ada@example.com' }));
    const em = t.stack.ctx.orm.em.fork();
    expect(await markSubmissionSpam(em, t.accountId, first.id, true)).toEqual({
      outcome: 'changed',
    });
    ingestResultOf(await postJson(form.json_url, { email: 'ada@example.com' }));
    expect(await acceptedRows(form.id)).toBe(1);
  });

  it('marked not spam again, takes its value back, unless another submission holds it now', async () => {
    const form = await gatedForm({ unique_field: 'email' });
    const em = () => t.stack.ctx.orm.em.fork();
    const ada = ingestResultOf(await postJson(form.json_url, { email: 'Ada@example.com ' }));
    const bob = ingestResultOf(await postJson(form.json_url, { email: 'bob@example.com' }));
    await markSubmissionSpam(em(), t.accountId, ada.id, true);
    await markSubmissionSpam(em(), t.accountId, bob.id, true);
    // Ada's value is taken by a newer submission meanwhile; Bob's is free.
    ingestResultOf(await postJson(form.json_url, { email: 'ada@example.com' }));
    expect(await markSubmissionSpam(em(), t.accountId, ada.id, false)).toEqual({
      outcome: 'breaks_rules',
      problem: {
        kind: 'invalid',
        errors: [expect.stringContaining('email: another accepted submission has this value')],
      },
    });
    expect(await markSubmissionSpam(em(), t.accountId, bob.id, false)).toEqual({
      outcome: 'changed',
    });
    // Bob holds his value again: the same address is refused, and counted.
    expectError(
      await postJson(form.json_url, { email: 'BOB@example.com' }),
      409,
      'already_submitted',
    );
    expect(await acceptedRows(form.id)).toBe(2);
  });
});

describe('the hosted page of a closed form', () => {
  const HOSTILE = '<b>Closed</b> & "done"';

  it('shows the closed message, escaped, instead of the form', async () => {
    const form = await gatedForm(
      { closes_at: at(-HOUR_MS), closed_message: HOSTILE },
      { page: PAGE },
    );
    const res = await t.http.get(`/f/${form.endpoint_token}`, { headers: HTML_ACCEPT });
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1>Spring meetup</h1>');
    expect(res.text).toContain('&lt;b&gt;Closed&lt;/b&gt; &amp; &quot;done&quot;');
    expect(res.text).not.toContain('<b>Closed</b>');
    expect(res.text).not.toContain('<form');
  });

  it('shows it once the count is reached, and to a post from the page', async () => {
    const form = await gatedForm({ max_submissions: 1 }, { page: PAGE });
    const open = await t.http.get(`/f/${form.endpoint_token}`, { headers: HTML_ACCEPT });
    expect(open.text).toContain('<form');
    ingestResultOf(await postJson(form.json_url, { email: 'a@example.com' }));
    const full = await t.http.get(`/f/${form.endpoint_token}`, { headers: HTML_ACCEPT });
    expect(full.status).toBe(200);
    expect(full.text).not.toContain('<form');
    expect(full.text).toContain('This form has all the submissions it takes');
    const posted = await postForm(
      `${t.stack.url}/f/${form.endpoint_token}`,
      { email: 'b@example.com' },
      { ...HTML_ACCEPT, Origin: t.stack.url },
    );
    expect(posted.status).toBe(403);
    expect(posted.text).toContain('This form has all the submissions it takes');
    expect(posted.text).not.toContain('<form');
  });
});
