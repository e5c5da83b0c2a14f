import type { Challenge } from 'altcha-lib' with { 'resolution-mode': 'import' };
import { describe, expect, it } from 'vitest';
import { createAppContext } from '../../src/runtime/app-context';
import { startHttpServer } from '../../src/http/http-server';
import { expectAnswer, expectError, request, type FormView } from '../support/api-client';
import { useTestStack } from '../support/fixture';
import { contactFields, postForm, postJson } from '../support/ingest-requests';
import { countSubmissions, onlySubmission } from '../support/stored-submissions';
import { solveAltcha } from '../support/altcha-solution';

// ALTCHA on forms (docs/captcha.md): challenges from GET /f/{token}/challenge, solved here as
// the widget solves them, accepted once (the used ones recorded in PostgreSQL), for 10 minutes,
// and for the form they were issued for only.

// One deployment, one APP_SECRET: a second process below shares it and the database.
const APP_SECRET = 'altcha-test-app-secret-0123456789-abcdefghij';
const t = useTestStack({ env: { APP_SECRET } });

async function altchaForm(): Promise<FormView> {
  const form = await t.api.createForm({ name: 'Proof of work', captcha: { provider: 'altcha' } });
  expect(form.captcha).toEqual({ provider: 'altcha' });
  return form;
}

/** The widget's field for a challenge: base64 JSON of the challenge and its solution. */
const solve = solveAltcha;

const challengeUrl = (form: FormView) => `${t.stack.url}/f/${form.endpoint_token}/challenge`;

async function fetchChallenge(form: FormView): Promise<Challenge> {
  const res = await request('GET', challengeUrl(form), {
    headers: { origin: 'https://customer.example' },
  });
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get('access-control-allow-origin')).toBe('https://customer.example');
  expect(res.headers.get('cache-control')).toBe('no-store');
  return res.body as Challenge;
}

describe('a form with ALTCHA', () => {
  it('embeds the widget, served with its script by the ingest server', async () => {
    const form = await altchaForm();
    const script = `${t.stack.url}/f/${form.endpoint_token}/altcha.js`;
    expect(form.embed_html).toContain(`<script src="${script}" async defer></script>`);
    expect(form.embed_html).toContain(
      `<altcha-widget challenge="${challengeUrl(form)}" name="altcha"></altcha-widget>`,
    );
    const res = await request('GET', script);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(res.text).toContain('altcha-widget');
    // No ALTCHA, no challenges.
    const plain = await t.api.createForm({ name: 'Plain' });
    expectError(await request('GET', challengeUrl(plain)), 404, 'not_found');
  });

  it(
    'a solved challenge is accepted once; the field is not stored',
    { timeout: 60_000 },
    async () => {
      const form = await altchaForm();
      const altcha = await solve(await fetchChallenge(form));
      const ok = await postForm(
        form.submission_url,
        { ...contactFields, altcha },
        { accept: 'application/json' },
      );
      expect(ok.status, ok.text).toBe(200);
      const stored = await onlySubmission(t.stack, form.id);
      expect(stored.payload_json).toEqual(contactFields);
      expect(stored.is_spam).toBe(false);
      // Used: recorded in PostgreSQL, so no process of the service takes it again.
      const [used] = await t.stack.sql<{ n: number }>(
        'select count(*)::int as n from altcha_used_challenges where expires_at > now()',
      );
      expect(used!.n).toBeGreaterThanOrEqual(1);
      const replay = await postJson(form.json_url, { ...contactFields, altcha });
      expect(expectError(replay, 422, 'captcha_failed').message).toMatch(/already used/);
      const missing = await postJson(form.json_url, contactFields);
      expect(expectError(missing, 422, 'captcha_failed').message).toMatch(/not completed/);
      const garbage = await postJson(form.json_url, { ...contactFields, altcha: 'bm90IGpzb24=' });
      expectError(garbage, 422, 'captcha_failed');
      expect(await countSubmissions(t.stack, form.id)).toBe(1);
    },
  );

  it(
    'a challenge used through one process is refused by another',
    { timeout: 60_000 },
    async () => {
      const form = await altchaForm();
      const other = await createAppContext(
        { ...t.stack.config, port: 0, appSecret: APP_SECRET },
        { databaseUrl: t.stack.databaseUrl, temporalAddress: t.stack.temporalAddress },
      );
      const server = await startHttpServer(other);
      try {
        const altcha = await solve(await fetchChallenge(form));
        const first = await postJson(form.json_url, { ...contactFields, altcha });
        expect(first.status, first.text).toBe(200);
        const elsewhere = `${server.url}/json/${form.endpoint_token}`;
        const replay = await postJson(elsewhere, { ...contactFields, altcha });
        expect(expectError(replay, 422, 'captcha_failed').message).toMatch(/already used/);
        // The other process takes challenges of this one: the refusal above was the reuse.
        const fresh = await solve(await fetchChallenge(form));
        const accepted = await postJson(elsewhere, { ...contactFields, altcha: fresh });
        expect(accepted.status, accepted.text).toBe(200);
        expect(await countSubmissions(t.stack, form.id)).toBe(2);
      } finally {
        await server.close();
        await other.close();
      }
    },
  );

  it("another form's challenge is refused", { timeout: 60_000 }, async () => {
    const form = await altchaForm();
    const other = await altchaForm();
    const altcha = await solve(await fetchChallenge(other));
    const res = await postJson(form.json_url, { ...contactFields, altcha });
    expect(expectError(res, 422, 'captcha_failed').message).toMatch(/another form/);
    expect(await countSubmissions(t.stack, form.id)).toBe(0);
  });

  it('a challenge older than 10 minutes is refused', { timeout: 60_000 }, async () => {
    const form = await altchaForm();
    const issued = Date.now() - 10 * 60_000 - 1_000;
    const old = (await t.stack.ctx.captcha.challenge(form.endpoint_token, issued)) as Challenge;
    const res = await postJson(form.json_url, { ...contactFields, altcha: await solve(old) });
    expect(expectError(res, 422, 'captcha_failed').message).toMatch(/expired/);
    expect(await countSubmissions(t.stack, form.id)).toBe(0);
  });

  it('expired records of used challenges are purged', { timeout: 60_000 }, async () => {
    const form = await altchaForm();
    await t.stack.sql(
      "insert into altcha_used_challenges (signature, expires_at) values ('stale', now() - interval '1 minute')",
    );
    const altcha = await solve(await fetchChallenge(form));
    const res = await postJson(form.json_url, { ...contactFields, altcha });
    expect(res.status, res.text).toBe(200);
    const stale = await t.stack.sql(
      "select 1 from altcha_used_challenges where signature = 'stale'",
    );
    expect(stale).toEqual([]);
  });

  it('PATCH back to null drops the widget and the check', async () => {
    const form = await altchaForm();
    const res = await t.api.patch(`/api/forms/${form.id}`, { captcha: null });
    const view = expectAnswer(res, 'PATCH /api/forms/{id}', 200).form;
    expect(view.embed_html).not.toContain('altcha');
    const ok = await postJson(form.json_url, contactFields);
    expect(ok.status, ok.text).toBe(200);
  });
});
