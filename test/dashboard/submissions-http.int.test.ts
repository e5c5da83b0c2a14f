import { describe, expect, it } from 'vitest';
import { request, type ApiResponse } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { ingestResultOf, postMultipart, submitJson } from '../support/ingest-requests';
import { signIn } from '../support/sign-in';

// The submission pages over plain HTTP: lists, search, pages, detail, spam marking, delete,
// erasure by e-mail, exports, escaping of hostile values, CSRF, and a second account.

const t = useTestStack({ form: { name: 'Contact', accept_files: true } });

const MARKUP = '<script>alert(1)</script><img src=x onerror=alert(2)>';

async function session() {
  const cookie = await signIn(t.stack.url, t.email, t.password);
  const page = await request('GET', `${t.stack.url}/app`, { cookie });
  const csrf = /name="csrf-token" content="([^"]+)"/.exec(page.text)![1]!;
  const get = (path: string) => request('GET', `${t.stack.url}${path}`, { cookie });
  const post = (path: string, fields: Record<string, string>, withToken = true) =>
    request('POST', `${t.stack.url}${path}`, {
      cookie,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(withToken ? { _csrf: csrf, ...fields } : fields).toString(),
    });
  return { cookie, get, post };
}

const unique = () => Math.random().toString(36).slice(2, 10);

/** The page shows the markup as text (when `shown`) and never as markup. */
function expectNoRawMarkup(res: ApiResponse, shown = true) {
  expect(res.status, res.text).toBe(200);
  expect(res.text).not.toContain('<script>alert');
  expect(res.text).not.toContain('<img src=x');
  if (shown) expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
}

describe('lists and detail', () => {
  it('search, range, per form and across forms, and a detail page with every field', async () => {
    const { get } = await session();
    const word = `needle${unique()}`;
    const id = await submitJson(t.form, {
      email: 'Grace@Example.com',
      message: `looking for ${word}`,
      tags: ['a', 'b'],
      nested: { deep: { value: 42 } },
    });
    const across = await get(`/app/submissions?q=${word}&range=all`);
    expect(across.status).toBe(200);
    expect(across.text).toContain(`/app/submissions/${id}`);
    const perForm = await get(`/app/forms/${t.form.id}/submissions?q=${word}`);
    expect(perForm.text).toContain(`/app/submissions/${id}`);
    const missing = await get(`/app/submissions?q=nothing${unique()}`);
    expect(missing.text).not.toContain(`/app/submissions/${id}"`);
    expect(missing.text).toContain('No submissions match.');

    const detail = await get(`/app/submissions/${id}`);
    expect(detail.status).toBe(200);
    expect(detail.text).toContain('grace@example.com'); // the normalized sender
    expect(detail.text).toContain(`looking for ${word}`);
    expect(detail.text).toMatch(/<li class="text">a<\/li>\s*<li class="text">b<\/li>/);
    expect(detail.text).toContain('&quot;deep&quot;: {');
    expect(detail.text).toContain('User agent');
    expect((await get('/app/submissions/99999999999')).status).toBe(404);
  });

  it('pages: a cursor link continues right after the last row', async () => {
    const { get } = await session();
    const word = `paged${unique()}`;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await submitJson(t.form, { message: `${word} ${i}` }));
    const first = await get(`/app/submissions?q=${word}&per_page=2`);
    expect(first.text).toContain(`/app/submissions/${ids[2]}"`);
    expect(first.text).toContain(`/app/submissions/${ids[1]}"`);
    expect(first.text).not.toContain(`/app/submissions/${ids[0]}"`);
    const next = /href="([^"]+)" rel="next"/.exec(first.text)![1]!.replaceAll('&amp;', '&');
    expect(next).toContain('cursor=');
    const second = await get(next);
    expect(second.text).toContain(`/app/submissions/${ids[0]}"`);
    expect(second.text).not.toContain(`/app/submissions/${ids[1]}"`);
    expect(second.text).not.toContain('rel="next"');
    expect((await get('/app/submissions?cursor=forged')).status).toBe(400);
  });

  it('uploaded files are download links the session can follow', async () => {
    const { get } = await session();
    const res = await postMultipart(
      t.form.submission_url,
      [
        { name: 'message', value: 'with a file' },
        { name: 'cv', filename: '<b>cv.txt', contentType: 'text/plain', content: 'hello' },
      ],
      { accept: 'application/json' },
    );
    const { id } = ingestResultOf(res);
    const detail = await get(`/app/submissions/${id}`);
    expect(detail.text).toContain('&lt;b&gt;cv.txt');
    const href = new RegExp(`href="(/api/submissions/${id}/files/\\d+)"`).exec(detail.text)![1]!;
    const file = await get(href);
    expect(file.status).toBe(200);
    expect(file.text).toBe('hello');
  });
});

describe('hostile values render as text', () => {
  it('every field name and value is markup: list, detail and export preview escape it', async () => {
    const { get } = await session();
    const id = await submitJson(t.form, {
      [MARKUP]: MARKUP,
      message: MARKUP,
      [`${MARKUP}list`]: [MARKUP, MARKUP],
      [`${MARKUP}object`]: { [MARKUP]: MARKUP },
      email: 'xss@example.com',
    });
    const detail = await get(`/app/submissions/${id}`);
    expectNoRawMarkup(detail);
    // The spam check may move it to the spam tab at any moment: look at both.
    const lists = [
      await get(`/app/submissions?q=xss@example.com`),
      await get(`/app/submissions?q=xss@example.com&spam=1`),
    ];
    const listed = (text: string) => text.includes(`/app/submissions/${id}"`);
    expect(lists.some((list) => listed(list.text))).toBe(true);
    for (const list of lists) expectNoRawMarkup(list, listed(list.text));
    const previews = [
      await get(`/app/forms/${t.form.id}/export?q=xss@example.com`),
      await get(`/app/forms/${t.form.id}/export?q=xss@example.com&spam=1`),
    ];
    const previewed = (text: string) => text.includes('xss@example.com</td>');
    expect(previews.some((preview) => previewed(preview.text))).toBe(true);
    for (const preview of previews) expectNoRawMarkup(preview, previewed(preview.text));
  });
});

describe('changes', () => {
  it('refuses a change without the CSRF token', async () => {
    const { post, get } = await session();
    const id = await submitJson(t.form, { message: 'keep me' });
    expect((await post(`/app/submissions/${id}/delete`, {}, false)).status).toBe(403);
    expect((await get(`/app/submissions/${id}`)).status).toBe(200);
  });

  it('marks spam and not spam (not delivered again until replayed), then deletes', async () => {
    const { post, get } = await session();
    const id = await submitJson(t.form, { message: 'a plain message' });
    const marked = await post(`/app/submissions/${id}/spam`, { spam: '1' });
    expect(marked.status).toBe(303);
    let detail = await get(`/app/submissions/${id}`);
    expect(detail.text).toContain('marked_by_hand');
    expect(await t.api.submissionIds('/api/submissions/spam?range=all')).toContain(id);

    await post(`/app/submissions/${id}/spam`, { spam: '0' });
    detail = await get(`/app/submissions/${id}`);
    expect(detail.text).toContain('does not deliver it');
    expect(detail.text).toContain(`action="/app/submissions/${id}/replay"`);
    expect(await t.api.submissionIds('/api/submissions?range=all')).toContain(id);

    const deleted = await post(`/app/submissions/${id}/delete`, {});
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get('location')).toBe(`/app/forms/${t.form.id}/submissions`);
    expect((await get(`/app/submissions/${id}`)).status).toBe(404);
    expect((await t.api.get(`/api/submissions/${id}`)).status).toBe(404);
  });

  it('refuses "not spam" for a stored honeypot post whose values break the form\'s rules', async () => {
    const { post, get } = await session();
    const form = await t.api.createForm({
      name: 'Sign-up',
      fields: [{ name: 'email', label: 'E-mail', type: 'email', required: true }],
      unknown_fields: 'drop',
    });
    const free = await t.api.createForm({ name: 'Free-form' });
    const spamIds = await t.api.submissionIds('/api/submissions/spam?range=all');
    const bad = await submitJson(form, { _hp: 'x', email: 'not-an-address' });
    const badFree = await submitJson(free, { _hp: 'x', email: 'not-an-address' });
    const good = await submitJson(form, { _hp: 'x', email: 'ok@example.com', extra: 'gone' });
    expect(await t.api.submissionIds('/api/submissions/spam?range=all')).toEqual(
      expect.arrayContaining([...spamIds, bad, badFree, good]),
    );

    for (const id of [bad, badFree]) {
      const refused = await post(`/app/submissions/${id}/spam`, { spam: '0' });
      expect(refused.status).toBe(422);
      expect(refused.text).toContain('This submission stays in spam');
      expect(refused.text).toContain('email: must be a valid e-mail address');
      const [row] = await t.stack.sql<{ is_spam: boolean }>(
        'select is_spam from submissions where id = ?',
        [id],
      );
      expect(row?.is_spam).toBe(true);
    }
    // Still spam: nothing to deliver again.
    expect((await get(`/app/submissions/${bad}`)).text).not.toContain(
      `action="/app/submissions/${bad}/replay"`,
    );

    expect((await post(`/app/submissions/${good}/spam`, { spam: '0' })).status).toBe(303);
    const inbox = await t.api.submissionIds('/api/submissions?range=all');
    expect(inbox).toContain(good);
    expect(inbox).not.toContain(bad);
  });

  it('erases every submission of a sender, across forms, files too, after naming the count', async () => {
    const { post, get } = await session();
    const other = await t.api.createForm({ name: 'Other', accept_files: true });
    const sender = `erase-${unique()}@example.com`;
    const kept = await submitJson(t.form, { email: `kept-${unique()}@example.com` });
    const ids = [
      await submitJson(t.form, { email: sender, message: 'one' }),
      await submitJson(other, { email: sender.toUpperCase(), message: 'two' }),
    ];
    const upload = await postMultipart(
      other.submission_url,
      [
        { name: 'email', value: sender },
        { name: 'file', filename: 'a.txt', contentType: 'text/plain', content: 'bytes' },
      ],
      { accept: 'application/json' },
    );
    expect(upload.status, upload.text).toBe(200);
    ids.push(ingestResultOf(upload).id);

    const form = await get(`/app/submissions/erase?email=${encodeURIComponent(sender)}`);
    expect(form.status).toBe(200);
    const confirm = await post('/app/submissions/erase', { email: sender });
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('3 submissions');
    expect(await t.stack.sql('select 1 from submissions where id = ?', [ids[0]])).toHaveLength(1);

    const erased = await post('/app/submissions/erase', { email: sender, confirm: 'yes' });
    expect(erased.status).toBe(303);
    for (const id of ids) expect((await t.api.get(`/api/submissions/${id}`)).status).toBe(404);
    const files = await t.stack.sql('select 1 from submission_files where submission_id = ?', [
      ids[2],
    ]);
    expect(files).toHaveLength(0);
    expect((await t.api.get(`/api/submissions/${kept}`)).status).toBe(200);
    expect((await post('/app/submissions/erase', { email: 'not an address' })).status).toBe(422);
  });
});

describe('exports', () => {
  it('CSV: the union of field names, formula cells escaped, the filters honoured', async () => {
    const { get } = await session();
    const word = `export${unique()}`;
    await submitJson(t.form, { message: `${word} =1+2`, city: '@home' });
    await submitJson(t.form, { message: `${word} plain`, country: '-3', tags: ['x', 'y'] });
    await submitJson(t.form, { message: 'not this one' });
    const res = await get(`/app/forms/${t.form.id}/export.csv?q=${word}&range=all`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename=formward-${t.form.endpoint_token}-submissions.csv`,
    );
    const lines = res.text.trim().split('\n');
    expect(lines[0]).toBe(
      'submission_id,received_at,city,country,message,tags,source_ip,user_agent,referrer,is_spam,spam_reason',
    );
    expect(lines).toHaveLength(3);
    expect(res.text).toContain(`,'-3,`);
    expect(res.text).toContain(`'@home`);
    expect(res.text).toContain(`x; y`);
    expect(res.text).not.toContain('not this one');
    // Only a cell that starts with a formula character is changed.
    expect(res.text).toContain(`${word} =1+2`);
  });

  it('CSV: a field name that is a formula is escaped in the header too', async () => {
    const { get } = await session();
    const word = `header${unique()}`;
    await submitJson(t.form, { '=HYPERLINK("x")': 'v', message: word });
    const res = await get(`/app/forms/${t.form.id}/export.csv?q=${word}`);
    expect(res.text.split('\n')[0]).toContain(`"'=HYPERLINK(""x"")"`);
  });

  it('JSON: every submission with its fields as submitted', async () => {
    const { get } = await session();
    const word = `json${unique()}`;
    const id = await submitJson(t.form, { message: word, nested: { a: [1, 2] } });
    const res = await get(`/app/forms/${t.form.id}/export.json?q=${word}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('-submissions.json');
    expect(res.body).toEqual([
      expect.objectContaining({ id, fields: { message: word, nested: { a: [1, 2] } } }),
    ]);
  });
});

describe('a second account', () => {
  it('sees nothing of the first: 404 for its submissions, forms and exports', async () => {
    const id = await submitJson(t.form, { message: 'private' });
    const other = await t.newTenant();
    const cookie = await signIn(t.stack.url, other.email, other.password);
    const get = (path: string) => request('GET', `${t.stack.url}${path}`, { cookie });
    expect((await get(`/app/submissions/${id}`)).status).toBe(404);
    expect((await get(`/app/forms/${t.form.id}/submissions`)).status).toBe(404);
    expect((await get(`/app/forms/${t.form.id}/export`)).status).toBe(404);
    expect((await get(`/app/forms/${t.form.id}/export.csv`)).status).toBe(404);
    const list = await get('/app/submissions?range=all');
    expect(list.text).not.toContain(`/app/submissions/${id}"`);
    const page = await get('/app');
    const csrf = /name="csrf-token" content="([^"]+)"/.exec(page.text)![1]!;
    const erase = await request('POST', `${t.stack.url}/app/submissions/${id}/delete`, {
      cookie,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf }).toString(),
    });
    expect(erase.status).toBe(404);
    expect((await t.api.get(`/api/submissions/${id}`)).status).toBe(200);
  });
});
