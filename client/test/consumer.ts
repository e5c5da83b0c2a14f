/*
 * How an application uses the client, compiled under --strict by the repository's
 * test/client/client-types.test.ts. Each `@ts-expect-error` line is a call the API would
 * refuse: it must not compile (tsc fails on a directive whose line compiles).
 */
import { Formward, FormwardError, type Form, type Submission } from '../src/index.js';

const formward = new Formward({ baseUrl: 'https://forms.example.com', apiKey: 'frk_example' });

export async function createAndUpdate(): Promise<Form> {
  const form = await formward.forms.create({
    name: 'Sign-ups',
    // What the API defaults (a field's `required`, the page's texts) may be left out.
    fields: [
      { name: 'email', label: 'E-mail', type: 'email', required: true },
      { name: 'team', label: 'Team', type: 'text' },
    ],
    page: { title: 'Sign up' },
    limits: { max_submissions: 100, unique_field: 'email' },
  });
  // @ts-expect-error: a form has a `name`, not a `nam`
  await formward.forms.create({ nam: 'Sign-ups' });
  // @ts-expect-error: `name` is required on creation
  await formward.forms.create({ is_active: true });
  // @ts-expect-error: a name is text
  await formward.forms.update(form.id, { name: 42 });
  // @ts-expect-error: the limit is `max_submissions`
  await formward.forms.update(form.id, { limits: { max_submission: 5 } });
  // @ts-expect-error: a field's type is one of the API's field types
  await formward.forms.update(form.id, { fields: [{ name: 'x', label: 'X', type: 'colour' }] });
  // @ts-expect-error: the Form has no `title`
  console.log(form.title);
  return formward.forms.update(form.id, { is_active: false, limits: null });
}

export async function walk(form: Form): Promise<Submission[]> {
  const all: Submission[] = [];
  for await (const submission of formward.submissions.all({ form_id: form.id, range: 'all' })) {
    all.push(submission);
    // @ts-expect-error: the submitted fields are `payload_json`
    console.log(submission.payload);
  }
  // @ts-expect-error: `range` is 24h, 7d, 30d or all
  formward.submissions.all({ range: '1y' });
  return all;
}

export async function plugins(form: Form): Promise<void> {
  const hook = await formward.plugins.create(form.id, {
    plugin_type: 'webhook',
    config: { url: 'https://hooks.example.com/formward' },
  });
  await formward.plugins.update(form.id, hook.id, { enabled: false });
  // @ts-expect-error: `plugin_type` is required
  await formward.plugins.create(form.id, { config: { url: 'https://hooks.example.com' } });
  // @ts-expect-error: an update takes enabled, conditions, include_fields or config
  await formward.plugins.update(form.id, hook.id, { name: 'renamed' });
}

export async function errors(form: Form): Promise<string | null> {
  try {
    await formward.submit(form.endpoint_token, { email: 'someone@example.com' });
    return null;
  } catch (error) {
    if (!(error instanceof FormwardError)) throw error;
    if (error.is('form_closed') || error.is('already_submitted')) return error.message;
    // @ts-expect-error: not an error code of the API
    if (error.is('form_closd')) return null;
    return `${error.status} ${error.code}: ${error.errors.join('; ')}`;
  }
}
