import { beforeAll, describe, expect, it } from 'vitest';
import { expectAnswer, type ApiResponse } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { postMultipart, submitJson } from '../support/ingest-requests';
import { signIn } from '../support/sign-in';

// Pages and answers that show submissions, files, keys or tokens are `Cache-Control:
// no-store`, so a shared browser or proxy cache keeps none of them; public
// things keep their caching (docs/api-conventions.md, Security headers).
const t = useTestStack({ form: { name: 'Cached?', accept_files: true } });

const expectNoStore = (res: ApiResponse, what: string) => {
  expect(res.status, `${what}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
  expect(res.headers.get('cache-control'), what).toBe('no-store');
};

let submissionId = '';
let fileUrl = '';
let cookie = '';

beforeAll(async () => {
  const res = await postMultipart(
    t.form.submission_url,
    [
      { name: 'email', value: 'ada@example.com' },
      { name: 'cv', filename: 'cv.txt', contentType: 'text/plain', content: 'my private cv' },
    ],
    { accept: 'application/json' },
  );
  submissionId = expectAnswer(res, 'POST /f/{endpoint_token}', 200).id;
  const read = await t.api.get(`/api/submissions/${submissionId}`);
  const { payload_json } = expectAnswer(read, 'GET /api/submissions/{id}', 200).submission;
  fileUrl = (payload_json.cv as { url: string }).url;
  await submitJson(t.form, { message: 'a second one' });
  cookie = await signIn(t.stack.url, t.email, t.password);
});

describe('no-store on what shows personal data, keys or tokens', () => {
  it('every kind of authenticated API answer', async () => {
    const answers: Array<[string, Promise<ApiResponse>]> = [
      ['API root', t.api.get('/api')],
      ['form list', t.api.get('/api/forms')],
      ['one form (its endpoint token)', t.api.get(`/api/forms/${t.form.id}`)],
      ['form created', t.api.post('/api/forms', { name: 'New' })],
      ['submission list', t.api.get('/api/submissions?range=all')],
      ['spam list', t.api.get('/api/submissions/spam?range=all')],
      ['one submission', t.api.get(`/api/submissions/${submissionId}`)],
      ['file download', t.api.get(fileUrl)],
      ['plugin list', t.api.get(`/api/forms/${t.form.id}/plugins`)],
      ['an API error', t.api.get('/api/submissions/1')],
      ['an unauthenticated API answer', t.http.get('/api/forms')],
    ];
    for (const [what, answer] of answers) expectNoStore(await answer, what);
    const download = await t.api.get(fileUrl);
    expect(download.text).toBe('my private cv');
  });

  it('a created plugin and a rotated secret', async () => {
    const created = await t.api.post(`/api/forms/${t.form.id}/plugins`, {
      plugin_type: 'webhook',
      config: { url: 'https://93.184.216.34/hook' },
    });
    const { plugin } = expectAnswer(created, 'POST /api/forms/{form_id}/plugins', 201);
    expectNoStore(created, 'plugin created');
    const rotated = await t.api.post(`/api/forms/${t.form.id}/plugins/${plugin.id}/rotate_secret`);
    expect(rotated.status, rotated.text).toBe(200);
    expectNoStore(rotated, 'secret rotated');
  });

  it('every dashboard page, the exports and a signed-out visit', async () => {
    const get = (path: string) => t.http.get(path, { cookie });
    for (const path of [
      '/app',
      '/app/submissions',
      `/app/submissions/${submissionId}`,
      `/app/forms/${t.form.id}/submissions`,
      '/app/forms',
      `/app/forms/${t.form.id}`,
      '/app/keys',
      '/app/settings',
      `/app/forms/${t.form.id}/export.csv?range=all`,
      `/app/forms/${t.form.id}/export.json?range=all`,
      '/app/no-such-page',
    ])
      expectNoStore(await get(path), path);
    expectNoStore(await t.http.get('/app/submissions'), 'signed out');
  });

  it('the account pages with tokens', async () => {
    for (const path of ['/login', '/signup', '/forgot', '/reset?token=abc', '/confirm?token=abc'])
      expectNoStore(await t.http.get(path), path);
  });
});

describe('public things keep their caching', () => {
  it.each([
    ['a dashboard asset', '/assets/app.css', /public, max-age=\d+/],
    ['the public spam metrics', '/api/public/spam_metrics', /public, max-age=\d+/],
  ])('%s (%s)', async (_what, path, expected) => {
    const res = await t.http.get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(expected);
  });

  it("the form's helper script, the thank-you page and the docs", async () => {
    const script = await t.http.get(`/f/${t.form.endpoint_token}/autocomplete.js`);
    expect(script.headers.get('cache-control')).toMatch(/public, max-age=\d+/);
    for (const path of [`/f/${t.form.endpoint_token}/thanks`, '/docs']) {
      const res = await t.http.get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control') ?? '').not.toMatch(/no-store/);
    }
  });
});
