import { describe, expect, it } from 'vitest';
import { MAX_FIELDS_BYTES } from '../../src/domain/forms/form-fields';
import { expectAnswer, expectValidationError } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { postForm } from '../support/ingest-requests';
import { fieldsOfSize } from '../support/sized-fields';
import { type AppSession, openAppSession } from './dashboard-support';

// The builder keeps to the form definition's byte budget, the API's rule (docs/form-fields.md,
// Limits): a field that takes the list past 64 KiB or 1,000 options, or page texts past 8 KiB,
// is refused as a form error with everything typed still in the inputs, and nothing is stored.

const t = useTestStack();

const readForm = async (id: string) =>
  expectAnswer(await t.api.get(`/api/forms/${id}`), 'GET /api/forms/{id}', 200).form;

const post = (session: AppSession, path: string, fields: Record<string, string>) =>
  postForm(`${t.stack.url}${path}`, { _csrf: session.csrf, ...fields }, { cookie: session.cookie });

describe('the builder and the definition budget', () => {
  it('refuses a field that takes the list past 64 KiB, keeping what was typed', async () => {
    const session = await openAppSession(t.stack.url, t.email, t.password);
    const stored = fieldsOfSize(MAX_FIELDS_BYTES - 300);
    const form = await t.api.createForm({ name: 'Nearly full', fields: stored });
    const path = `/app/forms/${form.id}/fields`;

    const draft = { label: 'One too many', name: 'extra', type: 'text', help: 'h'.repeat(400) };
    const refused = await post(session, path, { intent: 'add', ...draft });
    expect(refused.status).toBe(422);
    expect(refused.text).toMatch(
      /<p class="error" role="alert">The field list: at most 65536 bytes when serialized \(this list is \d+\)<\/p>/,
    );
    expect(refused.text).toContain('value="One too many"');
    expect(refused.text).toContain('h'.repeat(400));
    expect((await readForm(form.id)).fields).toEqual(stored);

    // A smaller field still fits.
    const fits = await post(session, path, {
      intent: 'add',
      label: 'Fits',
      name: 'fits',
      type: 'text',
    });
    expect(fits.status, fits.text).toBe(303);
    expect((await readForm(form.id)).fields).toHaveLength(stored.length + 1);
  });

  it('refuses the 1,001st option', async () => {
    const session = await openAppSession(t.stack.url, t.email, t.password);
    const options = (n: number) => Array.from({ length: n }, (_, i) => `o${i}`);
    const stored = [1, 2, 3, 4, 5].map((n) => ({
      name: `c${n}`,
      label: `C${n}`,
      type: 'checkbox' as const,
      required: false,
      options: options(n === 5 ? 199 : 200),
    }));
    const form = await t.api.createForm({ name: 'Many options', fields: stored });
    const path = `/app/forms/${form.id}/fields`;
    const draft = { label: 'Pick', name: 'pick', type: 'radio', options: 'Yes\nNo' };
    const refused = await post(session, path, { intent: 'add', ...draft });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain(
      'The field list: at most 1000 options in all (this list has 1001)',
    );
    expect(refused.text).toMatch(/<textarea name="options"[^>]*>Yes\nNo<\/textarea>/);
    expect((await readForm(form.id)).fields).toEqual(stored);
  });

  it('lets a list stored over the budget shrink, never grow; the API keeps the strict rule', async () => {
    const session = await openAppSession(t.stack.url, t.email, t.password);
    const form = await t.api.createForm({ name: 'Stored before the budget' });
    // Over 64 KiB, as a list stored before the budget existed.
    const legacy = fieldsOfSize(MAX_FIELDS_BYTES + 5000);
    const legacyPage = {
      title: 'Welcome',
      description: 'é'.repeat(4500),
      submit_label: 'Send',
      success_message: 'Thanks',
      accent_color: null,
    };
    await t.stack.sql('update forms set fields = ?::jsonb, page = ?::jsonb where id = ?', [
      JSON.stringify(legacy),
      JSON.stringify(legacyPage),
      form.id,
    ]);
    const path = `/app/forms/${form.id}/fields`;
    // The API answers what is stored, over the budget or not.
    expect(await readForm(form.id)).toMatchObject({ fields: legacy, page: legacyPage });
    const listed = expectAnswer(await t.api.get('/api/forms'), 'GET /api/forms', 200).forms;
    expect(listed.find((f) => f.id === form.id)?.fields).toEqual(legacy);

    const removed = await post(session, path, { intent: 'remove', target: legacy[0]!.name });
    expect(removed.status, removed.text).toBe(303);
    const smaller = legacy.slice(1);
    expect((await readForm(form.id)).fields).toEqual(smaller);
    expect(Buffer.byteLength(JSON.stringify(smaller))).toBeGreaterThan(MAX_FIELDS_BYTES);

    const added = await post(session, path, {
      intent: 'add',
      label: 'More',
      name: 'more',
      type: 'text',
    });
    expect(added.status).toBe(422);
    expect(added.text).toMatch(
      /The field list: at most 65536 bytes when serialized \(this list is \d+\); it is over the budget already: remove fields or options first/,
    );
    expect((await readForm(form.id)).fields).toEqual(smaller);

    // The API replaces the whole list: a smaller list still over the budget is refused.
    const patched = await t.api.patch(`/api/forms/${form.id}`, { fields: smaller.slice(1) });
    expectValidationError(patched, 'fields');
    expect((await readForm(form.id)).fields).toEqual(smaller);
  });

  it('refuses page texts past 8 KiB beside the description, keeping them', async () => {
    const session = await openAppSession(t.stack.url, t.email, t.password);
    const form = await t.api.createForm({ name: 'Long page' });
    const description = 'é'.repeat(4500);
    const refused = await post(session, `/app/forms/${form.id}/page`, {
      title: 'Welcome',
      description,
      submit_label: 'Send',
      success_message: 'Thanks',
      accent_color: '',
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toMatch(
      /id="page-error-description" role="alert">The page: at most 8192 bytes when serialized, its texts together \(this page is \d+\)/,
    );
    expect(refused.text).toContain(`>${description}</textarea>`);
    expect((await readForm(form.id)).page).toBeNull();
  });
});
