import { describe, expect, it } from 'vitest';
import { createSpamActivities } from '../../activities/spam';
import { BURST_COUNT } from '../../src/domain/spam/burst';
import { useTestStack } from '../support/fixture';
import { expectAnswer } from '../support/api-client';
import { contactFields, expectIngestResult, postForm, postJson } from '../support/ingest-requests';
import { eventually } from '../support/eventually';

// The spam activity on the real stack: submissions go through ingest, the worker runs their
// workflows, and the verdicts are read back from the database and the API.

// TRUST_PROXY lets each test submit from its own address (X-Forwarded-For), so the burst
// rule sees only what a test means it to see.
const t = useTestStack({
  worker: true,
  env: { TRUST_PROXY: 'loopback' },
  form: { name: 'Spam rules' },
});

let lastOctet = 0;
/** A documentation address (TEST-NET-3) no other test has used. */
const freshAddress = () => `203.0.113.${++lastOctet}`;

type Judged = {
  id: string;
  is_spam: boolean;
  spam_reason: string | null;
  spam_checked_at: Date;
  fill_ms: number | null;
  source_ip: string | null;
  payload_json: Record<string, unknown>;
};

/** Waits until the spam activity has judged the submission and returns its row. */
async function judged(id: string): Promise<Judged> {
  return eventually(
    async () => {
      const [row] = await t.stack.sql<
        Omit<Judged, 'spam_checked_at'> & { spam_checked_at: string | Date | null }
      >(
        `select id, is_spam, spam_reason, spam_checked_at, fill_ms, source_ip, payload_json
           from submissions where id = ?`,
        [id],
      );
      if (!row?.spam_checked_at) return null;
      return { ...row, id: String(row.id), spam_checked_at: new Date(row.spam_checked_at) };
    },
    { timeoutMs: 30_000, what: `spam_checked_at of submission ${id}` },
  );
}

async function sendJson(fields: Record<string, unknown>, address = freshAddress(), to = t.form) {
  const res = await postJson(to.json_url, fields, { 'X-Forwarded-For': address });
  return expectIngestResult(res, t.stack.url, to).id;
}

async function sendForm(fields: Record<string, string>, address = freshAddress(), to = t.form) {
  const res = await postForm(to.submission_url, fields, {
    'X-Forwarded-For': address,
    Accept: 'application/json',
  });
  return expectIngestResult(res, t.stack.url, to).id;
}

const verdictOf = (row: Judged) => ({ is_spam: row.is_spam, spam_reason: row.spam_reason });
const CLEAN = { is_spam: false, spam_reason: null };

/** Ids of the submissions each test judged spam, for the list and metrics checks at the end. */
const spamIds = new Map<string, string[]>();
const remember = (reason: string, id: string) =>
  spamIds.set(reason, [...(spamIds.get(reason) ?? []), id]);

describe('a clean submission', () => {
  it.each([
    { endpoint: 'json', send: () => sendJson(contactFields) },
    { endpoint: 'f', send: () => sendForm(contactFields) },
  ])('through /$endpoint stays clean and is marked checked', async ({ send }) => {
    const before = Date.now();
    const row = await judged(await send());
    expect(verdictOf(row)).toEqual(CLEAN);
    expect(row.spam_checked_at.getTime()).toBeGreaterThanOrEqual(before - 1_000);
    expect(row.fill_ms).toBeNull();
  });

  it('with three links, a tag-like "<" and ordinary words stays clean', async () => {
    const row = await judged(
      await sendJson({
        ...contactFields,
        message:
          'See https://a.example, http://b.example and www.c.example. I <3 it; a < b. ' +
          'We met at the Casinotheque; our SEO team is in-house.',
      }),
    );
    expect(verdictOf(row)).toEqual(CLEAN);
  });
});

describe('content rules', () => {
  it('too many links: four URLs across fields', async () => {
    const id = await sendJson({
      ...contactFields,
      website: 'https://one.example',
      message: 'Try http://two.example http://three.example www.four.example',
    });
    expect(verdictOf(await judged(id))).toEqual({ is_spam: true, spam_reason: 'too_many_links' });
    remember('too_many_links', id);
  });

  it('spam phrase, in any case, through an HTML form', async () => {
    const id = await sendForm({ ...contactFields, message: 'Affordable SEO-Services for you' });
    expect(verdictOf(await judged(id))).toEqual({ is_spam: true, spam_reason: 'spam_phrase' });
    remember('spam_phrase', id);
  });

  it('markup: an HTML link in a plain field', async () => {
    const id = await sendJson({
      ...contactFields,
      message: 'Great post! <a href="https://cheap.example">click</a>',
    });
    expect(verdictOf(await judged(id))).toEqual({ is_spam: true, spam_reason: 'markup' });
    remember('markup', id);
  });

  it('markup nested in a JSON value counts too', async () => {
    const id = await sendJson({
      ...contactFields,
      extra: { notes: ['[url=https://x.example]x[/url]'] },
    });
    expect(verdictOf(await judged(id))).toEqual({ is_spam: true, spam_reason: 'markup' });
    remember('markup', id);
  });
});

describe('fill time (_ts)', () => {
  it('a form sent a second after page load is too fast; _ts is not stored', async () => {
    const sentAt = Date.now();
    const id = await sendForm({ ...contactFields, _ts: String(sentAt - 1_000) });
    const row = await judged(id);
    expect(verdictOf(row)).toEqual({ is_spam: true, spam_reason: 'too_fast' });
    expect(row.fill_ms).toBeGreaterThanOrEqual(1_000);
    expect(row.fill_ms).toBeLessThanOrEqual(1_000 + (Date.now() - sentAt));
    expect(row.payload_json).toEqual(contactFields);
    remember('too_fast', id);
  });

  it('a form filled in 30 seconds is clean and its fill time is kept', async () => {
    const sentAt = Date.now();
    const row = await judged(await sendForm({ ...contactFields, _ts: String(sentAt - 30_000) }));
    expect(verdictOf(row)).toEqual(CLEAN);
    expect(row.fill_ms).toBeGreaterThanOrEqual(30_000);
    expect(row.fill_ms).toBeLessThanOrEqual(30_000 + (Date.now() - sentAt));
    expect(row.payload_json).toEqual(contactFields);
  });

  it('JSON clients may send _ts as a number', async () => {
    const id = await sendJson({ ...contactFields, _ts: Date.now() - 500 });
    const row = await judged(id);
    expect(verdictOf(row)).toEqual({ is_spam: true, spam_reason: 'too_fast' });
    expect(row.payload_json).not.toHaveProperty('_ts');
    remember('too_fast', id);
  });

  it.each([
    { what: 'empty (no JavaScript)', ts: '' },
    { what: 'not a number', ts: 'yesterday' },
    { what: 'in the future', ts: String(Date.now() + 60_000) },
    { what: 'older than a day', ts: String(Date.now() - 25 * 60 * 60 * 1_000) },
  ])('an unusable _ts, $what, means unknown: clean, fill_ms null', async ({ ts }) => {
    const row = await judged(await sendForm({ ...contactFields, _ts: ts }));
    expect(verdictOf(row)).toEqual(CLEAN);
    expect(row.fill_ms).toBeNull();
    expect(row.payload_json).toEqual(contactFields);
  });
});

describe('burst of identical submissions', () => {
  it(`the identical payload that reaches ${BURST_COUNT} from one address, and later ones, are spam`, async () => {
    expect(BURST_COUNT).toBe(3);
    const address = freshAddress();
    const fields = { name: 'Bot', email: 'bot@example.com', message: 'Same words every time' };
    const ids = [
      await sendJson(fields, address),
      await sendForm(fields, address), // the same payload_json through the other endpoint
      // the same object with its keys in another order is the same jsonb
      await sendJson({ message: fields.message, email: fields.email, name: fields.name }, address),
      await sendJson(fields, address),
    ];
    const verdicts = [];
    for (const id of ids) verdicts.push(verdictOf(await judged(id)));
    expect(verdicts).toEqual([
      CLEAN,
      CLEAN,
      { is_spam: true, spam_reason: 'burst' },
      { is_spam: true, spam_reason: 'burst' },
    ]);
    remember('burst', ids[2]!);
    remember('burst', ids[3]!);
  });

  it('does not group different addresses, forms or payloads', async () => {
    const address = freshAddress();
    const other = await t.api.createForm({ name: 'Other form' });
    const fields = { name: 'Person', email: 'p@example.com', message: 'Repeated question' };
    const ids = [
      await sendJson(fields, address),
      await sendJson(fields, address),
      await sendJson(fields, freshAddress()), // another address
      await sendJson(fields, address, other), // another form
      await sendJson({ ...fields, message: 'Repeated question!' }, address), // another payload
    ];
    for (const id of ids) expect(verdictOf(await judged(id))).toEqual(CLEAN);
  });
});

describe('verdicts are recorded once', () => {
  it('a honeypot verdict from ingest is kept, even when a content rule also matches', async () => {
    const id = await sendJson({ ...contactFields, message: 'casino casino', _hp: 'filled' });
    const row = await judged(id);
    expect(verdictOf(row)).toEqual({ is_spam: true, spam_reason: 'honeypot' });
    remember('honeypot', id);
  });

  it('running the activity again returns and keeps the stored verdict', async () => {
    const { checkSpam } = createSpamActivities(t.stack.ctx.orm);
    for (const [reason, ids] of spamIds) {
      for (const id of ids) {
        const before = await judged(id);
        expect(await checkSpam(id)).toEqual({ isSpam: true, reason });
        const after = await judged(id);
        expect(verdictOf(after)).toEqual({ is_spam: true, spam_reason: reason });
        expect(after.spam_checked_at).toEqual(before.spam_checked_at);
      }
    }
    const clean = await sendJson(contactFields);
    const first = await judged(clean);
    expect(await checkSpam(clean)).toEqual({ isSpam: false, reason: null });
    expect((await judged(clean)).spam_checked_at).toEqual(first.spam_checked_at);
  });

  it('a submission stored unchecked is judged by a direct run, once', async () => {
    // Rows with a fill time of 1 s: inserted behind ingest's back so no workflow starts for it.
    const [row] = await t.stack.sql<{ id: string }>(
      `insert into submissions (form_id, account_id, payload_json, source_ip, fill_ms)
       values (?, ?, ?::jsonb, ?, 1000) returning id`,
      [t.form.id, t.accountId, JSON.stringify(contactFields), freshAddress()],
    );
    const id = String(row!.id);
    const { checkSpam } = createSpamActivities(t.stack.ctx.orm);
    expect(await checkSpam(id)).toEqual({ isSpam: true, reason: 'too_fast' });
    const first = await judged(id);
    expect(await checkSpam(id)).toEqual({ isSpam: true, reason: 'too_fast' });
    expect(await judged(id)).toEqual(first);
    remember('too_fast', id);
  });

  it('an unknown submission id reports submission_missing', async () => {
    const { checkSpam } = createSpamActivities(t.stack.ctx.orm);
    expect(await checkSpam('999999999999')).toEqual({
      isSpam: false,
      reason: 'submission_missing',
    });
  });
});

describe('the API shows the verdicts', () => {
  it('/api/submissions/spam lists the judged submissions with their reasons', async () => {
    const res = await t.api.get(`/api/submissions/spam?form_id=${t.form.id}&per_page=500`);
    const listed = expectAnswer(res, 'GET /api/submissions/spam', 200).submissions;
    const expected = [...spamIds].flatMap(([reason, ids]) => ids.map((id) => ({ id, reason })));
    expect(listed.map((s) => ({ id: s.id, reason: s.spam_reason })).sort(byId)).toEqual(
      expected.sort(byId),
    );
    const clean = await t.api.get(`/api/submissions?form_id=${t.form.id}&per_page=500`);
    const cleanIds = expectAnswer(clean, 'GET /api/submissions', 200).submissions.map((s) => s.id);
    expect(cleanIds.length).toBeGreaterThan(0);
    for (const { id } of expected) expect(cleanIds).not.toContain(id);
  });

  it('/api/public/spam_metrics counts spam by reason', async () => {
    const res = await t.http.get('/api/public/spam_metrics');
    const metrics = expectAnswer(res, 'GET /api/public/spam_metrics', 200);
    expect(metrics.by_reason).toEqual({
      too_many_links: 1,
      spam_phrase: 1,
      markup: 2,
      too_fast: 3,
      burst: 2,
      honeypot: 1,
    });
    expect(metrics.all_time.spam).toBe(10);
  });
});

const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
