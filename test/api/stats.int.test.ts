import { beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  expectAnswer,
  expectError,
  type AnswerBody,
  type ApiResponse,
  type FormView,
} from '../support/api-client';
import { backdate } from '../support/database-edits';
import { useTestStack } from '../support/fixture';
import { submitJson } from '../support/ingest-requests';
import { signIn } from '../support/sign-in';

const t = useTestStack();

type FormStats = AnswerBody<'GET /api/form_stats/{form_id}', 200>['stats'];
const statsOf = (res: ApiResponse) => expectAnswer(res, 'GET /api/form_stats/{form_id}', 200).stats;
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
    const { message } = expectError(await t.api.get('/api/stats'), 401, 'unauthorized');
    expect(message).toMatch(/session/i);
  });

  it('refuses no credentials → 401 unauthorized', async () => {
    expectError(await t.http.get('/api/stats'), 401, 'unauthorized');
  });

  it('with a session: totalForms, active, subs24h, subs7d of this account', async () => {
    const body = expectAnswer(await session.get('/api/stats'), 'GET /api/stats', 200);
    expect(body.ok).toBe(true);
    expect(body.stats).toEqual({ totalForms: 3, active: 2, subs24h: 3, subs7d: 4 });
    expect(body.payload).toEqual(body.stats);
  });
});

describe('GET /api/form_stats/{form_id}', () => {
  let stats: FormStats;

  beforeAll(async () => {
    stats = statsOf(await t.api.get(`/api/form_stats/${busy.id}`));
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
    const res = await t.api.get(`/api/submissions/${newestId}`);
    const newest = expectAnswer(res, 'GET /api/submissions/{id}', 200).submission;
    expect(stats.last_submission_at).toBe(newest.created_at);
  });

  it('daily has 30 UTC days ending today, with the counts per day', () => {
    expect(stats.daily).toHaveLength(30);
    expect(stats.daily[29]!.date).toBe(utcDay(0));
    expect(stats.daily[0]!.date).toBe(utcDay(29));
    const day = (daysAgo: number) => stats.daily.find((d) => d.date === utcDay(daysAgo));
    expect(day(0)).toEqual({ date: utcDay(0), submissions: 2, spam: 1 });
    expect(day(3)).toMatchObject({ submissions: 1, spam: 0 });
    expect(day(10)).toMatchObject({ submissions: 1, spam: 0 });
    const sum = stats.daily.reduce((n, d) => n + d.submissions, 0);
    expect(sum).toBe(4);
  });

  it('an empty form has zeros and no last submission', async () => {
    const fresh = await t.api.createForm({ name: 'Empty' });
    const empty = statsOf(await t.api.get(`/api/form_stats/${fresh.id}`));
    expect(empty).toMatchObject({
      total_submissions: 0,
      spam_submissions: 0,
      subs24h: 0,
      subs7d: 0,
      subs30d: 0,
      last_submission_at: null,
    });
    expect(empty.daily).toHaveLength(30);
  });

  it('by endpoint token gives the same numbers', async () => {
    const res = await t.api.get(`/api/form_stats/${quiet.endpoint_token}`);
    expect(statsOf(res)).toMatchObject({ form_id: quiet.id, total_submissions: 1, subs24h: 1 });
  });

  it('a readonly key may read form stats', async () => {
    const res = await t.readonly.get(`/api/form_stats/${busy.id}`);
    expect(statsOf(res).total_submissions).toBe(5);
  });

  it('a session may read form stats too', async () => {
    const res = await session.get(`/api/form_stats/${busy.id}`);
    expect(statsOf(res).total_submissions).toBe(5);
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
