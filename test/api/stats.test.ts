import { beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, expectError, type FormView, type Json } from '../support/api-client';
import { backdate } from '../support/database-edits';
import { useTestStack } from '../support/fixture';
import { submitJson } from '../support/ingest-requests';
import { signIn } from '../support/sign-in';

const t = useTestStack();
let session: ApiClient;
let busy: FormView;
let quiet: FormView;
let newestId: string;

const utcDay = (daysAgo: number) =>
  new Date(Date.now() - daysAgo * 24 * 3600 * 1000).toISOString().slice(0, 10);

/** Submits to a form, then moves the submission `age` into the past (empty: now). */
async function submitAged(form: FormView, age: string, payload: Record<string, unknown> = {}) {
  const id = await submitJson(form, { message: `aged ${age || 'now'}`, ...payload });
  if (age) await backdate(t.stack, id, age);
  return id;
}

beforeAll(async () => {
  busy = await t.api.createForm({ name: 'Busy' });
  quiet = await t.api.createForm({ name: 'Quiet' });
  const closed = await t.api.createForm({ name: 'Closed' });
  await t.api.patch(`/api/forms/${closed.id}`, { is_active: false });

  // busy: 2 now, 1 three days ago, 1 ten days ago, 1 forty days ago, 1 spam now
  await submitAged(busy, '3 days');
  await submitAged(busy, '10 days');
  await submitAged(busy, '40 days');
  await submitAged(busy, '');
  newestId = await submitAged(busy, '');
  await submitAged(busy, '', { _hp: 'filled' });
  // quiet: 1 now
  await submitAged(quiet, '');

  // another account's activity must not count
  const other = await t.newTenant();
  const otherForm = await other.api.createForm({ name: 'Elsewhere' });
  await submitAged(otherForm, '');

  session = new ApiClient(t.stack.url, {
    cookie: await signIn(t.stack.url, t.email, t.password),
  });
});

describe('GET /api/stats', () => {
  it('refuses an API key → 401 unauthorized, saying a session is needed', async () => {
    const res = await t.api.get('/api/stats');
    expectError(res, 401, 'unauthorized');
    expect(res.body.message).toMatch(/session/i);
  });

  it('refuses no credentials → 401 unauthorized', async () => {
    expectError(await t.http.get('/api/stats'), 401, 'unauthorized');
  });

  it('with a session: totalForms, active, subs24h, subs7d of this account', async () => {
    const res = await session.get('/api/stats');
    expect(res.status, res.text).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.stats).toEqual({ totalForms: 3, active: 2, subs24h: 3, subs7d: 4 });
    expect(res.body.payload).toEqual(res.body.stats);
  });
});

describe('GET /api/form_stats/{form_id}', () => {
  let stats: Json;

  beforeAll(async () => {
    const res = await t.api.get(`/api/form_stats/${busy.id}`);
    expect(res.status, res.text).toBe(200);
    stats = res.body.stats;
  });

  it('totals, spam and window counts', () => {
    expect(stats).toMatchObject({
      form_id: busy.id,
      total_submissions: 5,
      spam_submissions: 1,
      subs24h: 2,
      subs7d: 3,
      subs30d: 4,
      spam30d: 1,
    });
  });

  it('last_submission_at is the newest non-spam submission', async () => {
    const newest = (await t.api.get(`/api/submissions/${newestId}`)).body.submission;
    expect(stats.last_submission_at).toBe(newest.created_at);
  });

  it('daily has 30 UTC days ending today, with the counts per day', () => {
    expect(stats.daily).toHaveLength(30);
    expect(stats.daily[29].date).toBe(utcDay(0));
    expect(stats.daily[0].date).toBe(utcDay(29));
    const day = (daysAgo: number) => stats.daily.find((d: Json) => d.date === utcDay(daysAgo));
    expect(day(0)).toEqual({ date: utcDay(0), submissions: 2, spam: 1 });
    expect(day(3)).toMatchObject({ submissions: 1, spam: 0 });
    expect(day(10)).toMatchObject({ submissions: 1, spam: 0 });
    const sum = stats.daily.reduce((n: number, d: Json) => n + d.submissions, 0);
    expect(sum).toBe(4);
  });

  it('an empty form has zeros and no last submission', async () => {
    const fresh = await t.api.createForm({ name: 'Empty' });
    const res = await t.api.get(`/api/form_stats/${fresh.id}`);
    expect(res.body.stats).toMatchObject({
      total_submissions: 0,
      spam_submissions: 0,
      subs24h: 0,
      subs7d: 0,
      subs30d: 0,
      last_submission_at: null,
    });
    expect(res.body.stats.daily).toHaveLength(30);
  });

  it('by endpoint token gives the same numbers', async () => {
    const res = await t.api.get(`/api/form_stats/${quiet.endpoint_token}`);
    expect(res.body.stats).toMatchObject({ form_id: quiet.id, total_submissions: 1, subs24h: 1 });
  });

  it('a readonly key may read form stats', async () => {
    const res = await t.readonly.get(`/api/form_stats/${busy.id}`);
    expect(res.status).toBe(200);
    expect(res.body.stats.total_submissions).toBe(5);
  });

  it('a session may read form stats too', async () => {
    const res = await session.get(`/api/form_stats/${busy.id}`);
    expect(res.body.stats.total_submissions).toBe(5);
  });

  it('another account’s form and an unknown form → 404', async () => {
    const stranger = await t.newTenant();
    expectError(await stranger.api.get(`/api/form_stats/${busy.id}`), 404, 'not_found');
    expectError(await stranger.api.get(`/api/form_stats/${busy.endpoint_token}`), 404, 'not_found');
    expectError(await t.api.get('/api/form_stats/999999999'), 404, 'not_found');
  });

  it('without credentials → 401', async () => {
    expectError(await t.http.get(`/api/form_stats/${busy.id}`), 401, 'unauthorized');
  });
});
